/**
 * Turns key presses into commands (through the key table) and performs them: navigation goes
 * to the view reducer; pause, step, continue and breakpoints go to the debug gate; replay keys
 * to the player; quit and cancel to the app.
 */
import type { Dispatch, SetStateAction } from 'react';
import type { GateControls } from '../../runtime/gate.ts';
import { commandFor } from '../key-match.ts';
import type { KeyPress } from '../key-presses.ts';
import type { Command, KeyContext } from '../keys.ts';
import { MAX_SPEED, MIN_SPEED, type ReplayPlayer } from '../replay-player.ts';
import type { HumanFormField } from '../../base/events.ts';
import type { OpenQuestion } from '../store/index.ts';
import { applyViewCommand, type ViewFacts, type ViewState } from '../view/view-state.ts';
import {
  eraseIn,
  formAnswer,
  type AnswerForm,
  formKey,
  formOf,
  moveField,
  pickValue,
  typeInto,
} from '../view/answer-form.ts';
import { addTypedBreakpoint, toggleBreakpoint } from './breakpoint-commands.ts';
import { budgetCommand, type BudgetAnswering } from './budget-commands.ts';
import { useKeyQueue } from './use-key-queue.ts';

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
  gate: GateControls | undefined;
  refreshGate: () => void;
  replay: ReplayPlayer | undefined;
  cancel: () => void;
  exit: () => void;
  /** A live run's questions to the person: the one to answer now, and where answers go. */
  human?: HumanAnswering;
  /** Forks at a seq (`f`; `e` edits it first); absent where the run cannot be forked. */
  fork?: (seq: number, edit: boolean) => void;
  /** A live run's budgets at their warning, and where raises go. */
  budget?: BudgetAnswering;
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

/** Opens the question, or sends the reply typed; a reply that does not fit stays to be fixed. */
function answerCommand(command: 'answer' | 'answerSubmit', targets: CommandTargets): void {
  const question = targets.human?.question ?? null;
  if (targets.human === undefined || question === null) {
    targets.setView((view) => ({ ...view, overlay: 'none' }));
    targets.setNotice('no question is waiting for you');
    return;
  }
  if (command === 'answer') {
    targets.setView((view) => ({ ...view, overlay: 'answer' }));
    return;
  }
  let reply = targets.view.answer;
  if (question.form !== undefined) {
    // A form sends the JSON object of its fields once each field fits.
    const form = formOf(targets.view.form, formKey(question), question.form);
    const outcome = formAnswer(form, question.form);
    if (!outcome.ok) {
      const { problem, focus } = outcome;
      targets.setView((view) => ({ ...view, form: { ...form, problem, focus } }));
      targets.setNotice(problem);
      return;
    }
    reply = JSON.stringify(outcome.answer);
  }
  const problem = targets.human.answer(question, reply);
  if (problem !== undefined) {
    targets.setNotice(problem);
    return;
  }
  targets.setView((view) => ({ ...view, overlay: 'none', answer: '', form: null }));
  targets.setNotice(`answered ${question.actor}`);
}

/** The form's own keys (fields, values, erasing); false when the question has no form. */
function formCommand(command: Command, targets: CommandTargets): boolean {
  const question = targets.human?.question ?? null;
  const fields = question?.form;
  if (question === null || fields === undefined) return false;
  const edit = FORM_EDITS[command];
  if (edit === undefined) return false;
  const key = formKey(question);
  targets.setView((view) => ({ ...view, form: edit(formOf(view.form, key, fields), fields) }));
  return true;
}

/** What each form key does to the form. */
const FORM_EDITS: Partial<
  Record<Command, (form: AnswerForm, fields: HumanFormField[]) => AnswerForm>
> = {
  answerErase: eraseIn,
  answerNextField: (form, fields) => moveField(form, fields, 1),
  answerPreviousField: (form, fields) => moveField(form, fields, -1),
  answerNextValue: (form, fields) => pickValue(form, fields, 1),
  answerPreviousValue: (form, fields) => pickValue(form, fields, -1),
};

function gateCommand(command: 'pauseResume' | 'step' | 'continue', gate: GateControls): string {
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
    case 'detach':
      targets.exit();
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
  if (formCommand(command, targets)) return;
  if (budgetCommand(command, { ...targets, typed: targets.view.budgetTyped })) return;
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
  if (command === 'breakpointAddSubmit') {
    if (gate === undefined) targets.setNotice('no debugger in this run');
    else addTypedBreakpoint(targets, gate);
    return;
  }
  if (command === 'pauseResume' || command === 'step' || command === 'continue') {
    targets.setNotice(gate === undefined ? 'no debugger in this run' : gateCommand(command, gate));
    targets.refreshGate();
    return;
  }
  targets.setView((view) =>
    applyViewCommand(view, command, targets.facts, targets.detailBlock?.key ?? null),
  );
}

/** What the budget prompt's amount line takes: digits, a point, `$`, separators. */
const AMOUNT_CHARACTERS = /^[\d.$,_]+$/;

/** The overlays with a line to type into, and the view's field that holds what is typed. */
const TYPED_LINES = {
  filter: 'filter',
  answer: 'answer',
  budget: 'budgetTyped',
  breakpointAdd: 'breakpointTyped',
} as const satisfies Partial<Record<KeyContext['overlay'], keyof ViewState>>;

type TypedOverlay = keyof typeof TYPED_LINES;

function typesIntoLine(press: KeyPress, context: KeyContext): boolean {
  const { overlay } = context;
  if (!(overlay in TYPED_LINES)) return false;
  if (press.input === '' || press.key.ctrl) return false;
  if (overlay === 'budget' && !AMOUNT_CHARACTERS.test(press.input)) return false;
  return commandFor(press.input, press.key, context) === undefined;
}

/**
 * Handles the key at the front of `queue`: runs its command, or, while a line is open (filter,
 * answer, budget, new breakpoint), types it there together with the typed characters right after
 * it (a paste is one update, not one per character).
 */
function handleNextKey(queue: KeyPress[], targets: CommandTargets): void {
  const press = queue.shift();
  if (press === undefined) return;
  const { context } = targets;
  if (typesIntoLine(press, context)) {
    let text = press.input;
    while (queue[0] !== undefined && typesIntoLine(queue[0], context)) {
      text += queue.shift()?.input ?? '';
    }
    const question = targets.human?.question ?? null;
    const fields = question?.form;
    if (context.overlay === 'answer' && question !== null && fields !== undefined) {
      const key = formKey(question);
      targets.setView((view) => ({
        ...view,
        form: typeInto(formOf(view.form, key, fields), fields, text),
      }));
      return;
    }
    const field = TYPED_LINES[context.overlay as TypedOverlay];
    targets.setView((view) => ({ ...view, [field]: view[field] + text }));
    return;
  }
  const command = commandFor(press.input, press.key, context);
  if (command !== undefined) runCommand(command, targets);
}

/**
 * Listens for keys and runs their commands, each key in order with what the keys before it
 * did; while a line is open, typing edits it.
 */
export function useKeyCommands(targets: CommandTargets): void {
  useKeyQueue(targets, handleNextKey);
}
