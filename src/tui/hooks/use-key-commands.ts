/**
 * Turns key presses into commands (through the key table) and performs them: navigation goes
 * to the view reducer; pause, step, continue and breakpoints go to the debug gate; replay keys
 * to the player; quit and cancel to the app.
 */
import { useInput } from 'ink';
import type { Dispatch, SetStateAction } from 'react';
import { UsageError } from '../../base/errors.ts';
import type { DebugGate } from '../../runtime/gate.ts';
import { commandFor, type PressedKey } from '../key-match.ts';
import type { Command, KeyContext } from '../keys.ts';
import { MAX_SPEED, MIN_SPEED, type ReplayPlayer } from '../replay-player.ts';
import type { OpenQuestion } from '../store/index.ts';
import { applyViewCommand, type ViewFacts, type ViewState } from '../view/view-state.ts';

/** Everything the commands act on. */
export interface CommandTargets {
  context: KeyContext;
  view: ViewState;
  setView: Dispatch<SetStateAction<ViewState>>;
  setNotice: (notice: string) => void;
  facts: ViewFacts;
  /** The detail block under the cursor: its key, the tool it shows and its fork seq, if any. */
  detailBlock: { key: string; tool?: string; forkSeq?: number } | null;
  selectedActor: string | null;
  breakpoints: readonly string[];
  finished: boolean;
  cancelRequested: boolean;
  setCancelRequested: (value: boolean) => void;
  gate: DebugGate | undefined;
  refreshGate: () => void;
  replay: ReplayPlayer | undefined;
  cancel: () => void;
  exit: () => void;
  /** A live run's questions to the person: the one to answer now, and where answers go. */
  human?: HumanAnswering;
  /** Forks at a seq (`f`; `e` edits it first); absent where the run cannot be forked. */
  fork?: (seq: number, edit: boolean) => void;
}

/** `f` / `e`: forks at the event under the Events cursor or the detail block under the cursor. */
function forkCommand(command: 'fork' | 'editFork', targets: CommandTargets): void {
  const inEvents = targets.context.pane === 'events';
  const seq = inEvents ? targets.view.eventsSelected : (targets.detailBlock?.forkSeq ?? null);
  if (targets.fork === undefined) {
    targets.setNotice('this journal is not a run of a state directory: it cannot be forked');
    return;
  }
  if (seq === null) {
    targets.setNotice(
      inEvents
        ? 'select an event with ↑/↓ first (a model.response or a tool.completed)'
        : 'select a model reply or a tool result first (their titles show a seq)',
    );
    return;
  }
  targets.fork(seq, command === 'editFork');
}

/** What answering a question to the person needs. */
export interface HumanAnswering {
  /** The oldest question waiting for the person, if any. */
  question: OpenQuestion | null;
  /** Sends a reply; returns what is wrong with it, or undefined once it is the answer. */
  answer(question: OpenQuestion, reply: string): string | undefined;
}

/**
 * Opens the question, or sends the reply typed; a reply that does not fit stays to be fixed.
 * Returns whether the answer line is open afterwards.
 */
function answerCommand(command: 'answer' | 'answerSubmit', targets: CommandTargets): boolean {
  const question = targets.human?.question ?? null;
  if (targets.human === undefined || question === null) {
    targets.setView((view) => ({ ...view, overlay: 'none' }));
    targets.setNotice('no question is waiting for you');
    return false;
  }
  if (command === 'answer') {
    targets.setView((view) => ({ ...view, overlay: 'answer' }));
    return true;
  }
  const problem = targets.human.answer(question, targets.view.answer);
  if (problem !== undefined) {
    targets.setNotice(problem);
    return true;
  }
  targets.setView((view) => ({ ...view, overlay: 'none', answer: '' }));
  targets.setNotice(`answered ${question.actor}`);
  return false;
}

function gateCommand(command: Command, gate: DebugGate): string | null {
  switch (command) {
    case 'pauseResume':
      if (gate.isPaused) {
        gate.continue();
        return 'resumed';
      }
      gate.pause();
      return 'paused: every actor stops at its next model request or tool call';
    case 'step': {
      const point = gate.step();
      return point === undefined
        ? 'paused; nothing is held yet'
        : `stepped: ${point.kind} ${point.actor}${point.tool === undefined ? '' : ` ${point.tool}`}`;
    }
    case 'continue':
      gate.continue();
      return 'continuing';
    default:
      return null;
  }
}

function toggleBreakpoint(targets: CommandTargets, gate: DebugGate): string {
  let spec: string | undefined;
  if (targets.context.overlay === 'breakpoints') {
    spec = targets.breakpoints[targets.view.breakpointCursor];
  } else if (targets.context.pane === 'detail' && targets.detailBlock?.tool !== undefined) {
    spec = `tool:${targets.detailBlock.tool}`;
  } else if (targets.selectedActor !== null) {
    spec = `actor:${targets.selectedActor}`;
  }
  if (spec === undefined) return 'nothing selected';
  try {
    const set = gate.toggleBreakpoint(spec);
    return `breakpoint ${spec} ${set ? 'set' : 'removed'}`;
  } catch (error) {
    // Ids come from events; one the gate cannot parse must not take the screen down.
    if (error instanceof UsageError) return `cannot set breakpoint ${spec}: ${error.message}`;
    throw error;
  }
}

function replayCommand(command: Command, player: ReplayPlayer): boolean {
  const status = player.status();
  switch (command) {
    case 'replayPauseResume':
      if (status.paused) player.resume();
      else player.pause();
      return true;
    case 'replayStep':
      player.step();
      return true;
    case 'replayFaster':
      player.setSpeed(Math.min(MAX_SPEED, status.speed * 2));
      return true;
    case 'replaySlower':
      player.setSpeed(Math.max(MIN_SPEED, status.speed / 2));
      return true;
    case 'replayEnd':
      player.seekEnd();
      return true;
    default:
      return false;
  }
}

function leaveCommand(command: Command, targets: CommandTargets): boolean {
  const live = targets.context.mode === 'live' && !targets.finished;
  switch (command) {
    case 'quit':
      if (live) targets.setView((view) => ({ ...view, overlay: 'confirm' }));
      else targets.exit();
      return true;
    case 'confirmYes':
      targets.cancel();
      targets.exit();
      return true;
    case 'cancel':
      if (!live || targets.cancelRequested) {
        targets.exit();
        return true;
      }
      targets.cancel();
      targets.setCancelRequested(true);
      targets.setNotice('cancelling the run… ctrl-c again to leave now');
      return true;
    default:
      return false;
  }
}

/** Performs one command. */
export function runCommand(command: Command, targets: CommandTargets): void {
  if (leaveCommand(command, targets)) return;
  if (command === 'answer' || command === 'answerSubmit') {
    answerCommand(command, targets);
    return;
  }
  if (command === 'fork' || command === 'editFork') {
    forkCommand(command, targets);
    return;
  }
  const { gate, replay } = targets;
  if (replay !== undefined && replayCommand(command, replay)) return;
  if (command === 'toggleBreakpoint') {
    targets.setNotice(
      gate === undefined ? 'no debugger in this run' : toggleBreakpoint(targets, gate),
    );
    targets.refreshGate();
    return;
  }
  if (command === 'pauseResume' || command === 'step' || command === 'continue') {
    targets.setNotice(
      gate === undefined ? 'no debugger in this run' : (gateCommand(command, gate) ?? ''),
    );
    targets.refreshGate();
    return;
  }
  targets.setView((view) =>
    applyViewCommand(view, command, targets.facts, targets.detailBlock?.key ?? null),
  );
}

const NO_KEY: PressedKey = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  return: false,
  escape: false,
  tab: false,
  backspace: false,
  delete: false,
  pageUp: false,
  pageDown: false,
  ctrl: false,
};

const ENTER: PressedKey = { ...NO_KEY, return: true };

/**
 * Text typed into the open filter or answer line. Typed faster than the terminal is read, a
 * line and its Enter arrive as one chunk (`type=tool⏎`): the text before the line end is the
 * line's, the line end is Enter, and what follows is keys again.
 */
function typeIntoLine(line: 'filter' | 'answer', input: string, targets: CommandTargets): void {
  const end = input.search(/[\r\n]/);
  const text = end === -1 ? input : input.slice(0, end);
  targets.setView((view) => ({ ...view, [line]: view[line] + text }));
  if (end === -1) return;
  const typed = { ...targets, view: { ...targets.view, [line]: targets.view[line] + text } };
  const enter = commandFor('\r', ENTER, targets.context);
  let open = false;
  if (enter === 'answerSubmit') open = answerCommand(enter, typed);
  else if (enter !== undefined) runCommand(enter, typed);
  const rest = input.slice(end + 1);
  if (rest === '') return;
  const after = { ...typed.context, overlay: open ? line : ('none' as const) };
  handleKey(rest, NO_KEY, { ...typed, context: after });
}

/** Handles one read from the terminal: a key, or several typed at once. */
function handleKey(input: string, key: PressedKey, targets: CommandTargets): void {
  const command = commandFor(input, key, targets.context);
  if (command !== undefined) {
    runCommand(command, targets);
    return;
  }
  const { overlay } = targets.context;
  if ((overlay === 'filter' || overlay === 'answer') && input !== '' && !key.ctrl) {
    typeIntoLine(overlay, input, targets);
    return;
  }
  // Keys typed faster than the terminal is read (tmux send-keys, key repeat) arrive as one
  // chunk: `jjj` is three moves. `/` opens the filter, and what follows it is filter text.
  const characters = Array.from(input);
  if (key.ctrl || characters.length < 2) return;
  for (const [position, character] of characters.entries()) {
    const single = commandFor(character, NO_KEY, targets.context);
    if (single === undefined) continue;
    runCommand(single, targets);
    if (single === 'filter') {
      const rest = characters.slice(position + 1).join('');
      const filtering = { ...targets.context, overlay: 'filter' as const };
      if (rest !== '') typeIntoLine('filter', rest, { ...targets, context: filtering });
      return;
    }
  }
}

/** Listens for keys and runs their commands; while the filter or answer line is open, typing edits it. */
export function useKeyCommands(targets: CommandTargets): void {
  useInput((input, key) => handleKey(input, key, targets));
}
