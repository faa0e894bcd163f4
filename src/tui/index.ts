/**
 * The terminal UI. The CLI imports this module dynamically (`await import('../tui/index.ts')`)
 * so React and Ink load only when a TUI is shown; importing it has no side effects.
 */
import chalk from 'chalk';
import { render } from 'ink';
import { createElement } from 'react';
import type { MissionEvent } from '../base/events.ts';
import { App, type AppProps } from './app.tsx';
import type { Suspend } from './hooks/use-fork.ts';
import { totalsText } from '../present/money.ts';
import { createTuiStore, type RunHeader } from './store/index.ts';

export {
  createReplayPlayer,
  type ReplayOptions,
  type ReplayPlayer,
  type ReplayStatus,
} from './replay-player.ts';
export { createTuiStore, type TuiState, type TuiStore } from './store/index.ts';
export { App, type AppProps } from './app.tsx';
export type { Suspend, TuiForker } from './hooks/use-fork.ts';

/** What the TUI needs from a run (or a replay): the App's props but those renderTui makes, and the terminal. */
export interface RenderTuiOptions extends Omit<AppProps, 'store' | 'suspend' | 'now'> {
  /** The event source: a run's `bus.subscribe`, or a replay player's `subscribe`. */
  subscribe: (listener: (event: MissionEvent) => void) => () => void;
  stdout?: NodeJS.WriteStream;
  stdin?: NodeJS.ReadStream;
  /** Route console output above the UI (default true; tests whose console cannot be patched pass false). */
  patchConsole?: boolean;
  /**
   * Colours, bold, dim and inverse video (default true). False (`NO_COLOR`) draws the screen
   * with no escape sequence but cursor control.
   */
  color?: boolean;
}

/** The running TUI. */
export interface TuiHandle {
  /** Settles when the person quits (or `unmount` is called). */
  waitUntilExit(): Promise<void>;
  unmount(): void;
}

const ALTERNATE_SCREEN = '\u001b[?1049h';
const MAIN_SCREEN = '\u001b[?1049l';
const SHOW_CURSOR = '\u001b[?25h';
const HIDE_CURSOR = '\u001b[?25l';

/**
 * Lends the terminal to a program (the editor of `e`): the TUI's frame stays on the main
 * screen while the program draws on the alternate one, with the cursor shown and the terminal
 * out of raw mode, so Ink finds its frame where it left it afterwards and goes on drawing.
 * The work runs synchronously (spawnSync): Ink cannot draw over the program meanwhile.
 */
function terminalSuspender(stdout: NodeJS.WriteStream, stdin: NodeJS.ReadStream): Suspend {
  return (work) => {
    const raw = stdin.isTTY && stdin.isRaw;
    stdout.write(ALTERNATE_SCREEN + SHOW_CURSOR);
    if (raw) stdin.setRawMode(false);
    try {
      return work();
    } finally {
      if (raw) stdin.setRawMode(true);
      stdout.write(HIDE_CURSOR + MAIN_SCREEN);
    }
  };
}

/** `mission:research succeeded · 12 tasks · 48,210 tokens · $0.4121`: the line a finished run leaves. */
export function summaryLine(header: RunHeader): string {
  const totals = totalsText(header.taskCount, header.tokens, header.costPico, header.unpriced);
  return `mission:${header.mission ?? '?'} ${header.status} · ${totals}`;
}

/** Renders the TUI and feeds it the events from `subscribe` until it exits. */
export function renderTui(options: RenderTuiOptions): TuiHandle {
  // What is not about the terminal or the event source is the App's props, passed on as given.
  const { subscribe, stdout, stdin, patchConsole, color, ...appProps } = options;
  const store = createTuiStore();
  // Ink styles every Text through chalk's shared instance, and chalk's own detection does not
  // read NO_COLOR: level 0 turns every style off, for as long as the TUI is shown.
  const chalkLevel = chalk.level;
  if (color === false) chalk.level = 0;
  const unsubscribe = subscribe((event) => store.dispatch(event));
  const instance = render(
    createElement(App, {
      ...appProps,
      store,
      suspend: terminalSuspender(stdout ?? process.stdout, stdin ?? process.stdin),
    }),
    {
      // Ink spreads these over its defaults: an explicit undefined would replace process.stdout.
      ...(stdout === undefined ? {} : { stdout }),
      ...(stdin === undefined ? {} : { stdin }),
      patchConsole: patchConsole ?? true,
      // Ctrl-C is a key of the app (cancel first, leave on the second press).
      exitOnCtrlC: false,
    },
  );
  let stopped = false;
  const stop = (): void => {
    if (stopped) return;
    stopped = true;
    // Once Ink has let go of the screen: under its last frame, in the scrollback (written while
    // Ink draws, it would land above the frame and push it down a line).
    store.flush();
    const { header } = store.getState();
    if (header.durationMs !== null) {
      const paint = header.status === 'succeeded' ? chalk.bold.green : chalk.bold.red;
      (stdout ?? process.stdout).write(`${paint(summaryLine(header))}\n`);
    }
    chalk.level = chalkLevel;
    unsubscribe();
    store.dispose();
  };
  const exited = instance.waitUntilExit().then(
    () => stop(),
    () => stop(),
  );
  return {
    waitUntilExit: () => exited,
    unmount: () => {
      instance.unmount();
      stop();
    },
  };
}
