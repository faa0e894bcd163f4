/**
 * The Ink app, kept thin: it reads the store, the gate and the replay player, lets
 * `useScreen` derive what is visible and `useKeyCommands` act on keys, and lays out header,
 * tabs, body and footer. Logic lives in the store, view/ and the key table.
 */
import { Box, useApp } from 'ink';
import { useEffect, useState, useSyncExternalStore } from 'react';
import type { BudgetRaising } from '../runtime/budget-raises.ts';
import type { GateControls } from '../runtime/gate.ts';
import { ConfirmQuit } from './components/ConfirmQuit.tsx';
import { Footer } from './components/Footer.tsx';
import { Header } from './components/Header.tsx';
import { TabBody } from './components/TabBody.tsx';
import { Tabs } from './components/Tabs.tsx';
import { useBudgetPrompt } from './hooks/use-budget-prompt.ts';
import { useClock } from './hooks/use-clock.ts';
import { runDirectly, useFork, type Suspend, type TuiForker } from './hooks/use-fork.ts';
import { useGateView } from './hooks/use-gate-view.ts';
import { useKeyCommands } from './hooks/use-key-commands.ts';
import { useReplayStatus } from './hooks/use-replay-status.ts';
import { useScreen } from './hooks/use-screen.ts';
import { useTerminalSize } from './hooks/use-terminal-size.ts';
import type { KeyContext, Mode } from './keys.ts';
import type { ReplayPlayer } from './replay-player.ts';
import type { TuiStore, WarnedBudget } from './store/index.ts';
import { INITIAL_VIEW, focusedPane, type ViewState } from './view/view-state.ts';
import { breakpointRows } from './view/breakpoint-rows.ts';

/** The App's inputs: the store it draws, the run's controls, and what lends the terminal. */
export interface AppProps {
  store: TuiStore;
  /** Cancels the run (`RunHandle.cancel`); a replay passes a no-op. */
  cancel: () => void;
  /** The debugger's gate of a live run: enables pause, step, continue and breakpoints. */
  gate?: GateControls;
  /** Replay mode: the player the replay keys drive. */
  replay?: ReplayPlayer;
  /** Shown first in the header. Default `sortie`. */
  title?: string;
  /** The clock for elapsed time (tests pass a fixed one). */
  now?: () => number;
  /** A live run's desk for questions to the person (`RunHandle.human`); none in a replay. */
  human?: HumanDeskAnswers;
  /** Makes forks (`f`, `e`); absent where the run cannot be forked. */
  forker?: TuiForker;
  /** Hands the terminal to the editor of `e` (default: runs it as it is). */
  suspend?: Suspend;
  /** A served run watched from here (`sortie attach`): leaving detaches, the run goes on. */
  attached?: boolean;
  /** A live run's budgets: a warning holds the run and the person may raise the limit. */
  budgets?: BudgetRaising;
}

/** Where the person's answers go. */
export interface HumanDeskAnswers {
  answer(actor: string, callId: string, reply: string): string | undefined;
}

function hintFor(
  view: ViewState,
  finished: boolean,
  asking: string | null,
  warned: WarnedBudget | undefined,
): string {
  if (view.overlay === 'filter') return 'typing filters events: enter keeps, esc clears';
  if (warned !== undefined && view.overlay !== 'budget' && !finished)
    return `budget warning (${warned.scope} ${warned.subject}), the run is held: $ to choose`;
  if (asking !== null && view.overlay !== 'answer')
    return `${asking} asks you a question: a to answer`;
  return finished ? 'run finished — q to quit' : '';
}

/** The whole screen. */
export function App(props: AppProps) {
  const { exit } = useApp();
  const state = useSyncExternalStore(props.store.subscribe, props.store.getState);
  const gate = useGateView(props.gate);
  const replayStatus = useReplayStatus(props.replay);
  const [view, setView] = useState<ViewState>(INITIAL_VIEW);
  const [notice, setNotice] = useState('');
  const [cancelRequested, setCancelRequested] = useState(false);
  const finished = state.header.durationMs !== null;
  // A notice about the running run ("continuing", "cancelling…") is stale once it has ended.
  // So is the question whether to cancel it: a `q` pressed just before the end leaves no box
  // asking about a run that has ended (`q` would not answer it).
  useEffect(() => {
    if (!finished) return;
    setNotice('');
    setView((current) =>
      current.overlay === 'confirm' ? { ...current, overlay: 'none' } : current,
    );
  }, [finished]);
  const now = useClock(!finished, props.now ?? Date.now);
  // With a gate, the gate itself is the truth; a replay has only the recorded gate events.
  const held = props.gate === undefined ? state.held : gate.view.held;
  const paused = props.gate === undefined ? state.header.paused : gate.view.paused;
  const mode: Mode =
    props.replay !== undefined ? 'replay' : props.attached === true ? 'attached' : 'live';
  const question = props.human === undefined ? null : (state.questions[0] ?? null);
  // A question answered another way (timeout, the agent stopped) closes its prompt.
  useEffect(() => {
    if (question === null && view.overlay === 'answer') {
      setView((current) => ({ ...current, overlay: 'none', answer: '', form: null }));
    }
  }, [question, view.overlay]);
  const budget = useBudgetPrompt(props.budgets, state.warnedBudgets, view.overlay, setView);
  const context: KeyContext = {
    mode,
    pane: focusedPane(view),
    overlay: view.overlay,
    finished,
    asking: question !== null,
  };
  const screen = useScreen(state, view, held, useTerminalSize(), context);
  const fork = useFork(props.forker, props.suspend ?? runDirectly, setNotice, exit);

  useKeyCommands({
    context,
    view: { ...view, detailCursor: screen.detailCursor },
    setView,
    setNotice,
    facts: {
      rows: screen.tree,
      detailBlockCount: screen.blocks.length,
      listLength: screen.listLength,
      eventSeqs: screen.eventSeqs,
      bodyHeight: screen.bodyHeight,
      breakpointCount: breakpointRows(gate.view.breakpoints).length,
      helpLength: screen.help.length,
      itemRows: screen.items.rows,
    },
    detailBlock: screen.blocks[screen.detailCursor] ?? null,
    selectedActor: screen.selectedId,
    breakpoints: gate.view.breakpoints,
    finished,
    cancelRequested,
    setCancelRequested,
    gate: props.gate,
    refreshGate: gate.refresh,
    replay: props.replay,
    cancel: props.cancel,
    exit,
    ...(fork === undefined ? {} : { fork }),
    ...(budget === undefined ? {} : { budget }),
    ...(props.human === undefined
      ? {}
      : {
          human: {
            question,
            answer: (asked, reply) => props.human?.answer(asked.actor, asked.callId, reply),
          },
        }),
  });

  return (
    <Box flexDirection="column" width={screen.columns}>
      <Header
        header={state.header}
        title={props.title ?? 'sortie'}
        now={now}
        paused={paused}
        heldCount={held.length}
        replay={replayStatus}
        width={screen.columns}
      />
      <Tabs active={view.tab} />
      <TabBody
        state={state}
        view={view}
        screen={screen}
        mode={mode}
        held={held}
        breakpoints={gate.view.breakpoints}
        warned={budget?.waiting[0]}
      />
      {view.overlay === 'confirm' ? <ConfirmQuit /> : null}
      <Footer
        context={context}
        notice={notice || hintFor(view, finished, question?.actor ?? null, budget?.waiting[0])}
        width={screen.columns}
      />
    </Box>
  );
}
