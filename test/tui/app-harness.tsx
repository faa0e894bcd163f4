/** Mounts the App with ink-testing-library (100×30 unless told) and sends keys to it. */
import { render } from 'ink-testing-library';
import { act } from 'react';
import type { BudgetRaising } from '../../src/runtime/budget-raises.ts';
import type { DebugGate } from '../../src/runtime/gate.ts';
import type { EventBus } from '../../src/runtime/event-bus.ts';
import type { MissionEvent } from '../../src/base/events.ts';
import { App, type HumanDeskAnswers } from '../../src/tui/app.tsx';
import type { TuiForker } from '../../src/tui/hooks/use-fork.ts';
import type { ReplayPlayer } from '../../src/tui/replay-player.ts';
import { createTuiStore, type TuiStore } from '../../src/tui/store/index.ts';

/** Key sequences as a terminal sends them. */
export const KEYS = {
  up: '\u001B[A',
  down: '\u001B[B',
  right: '\u001B[C',
  left: '\u001B[D',
  enter: '\r',
  tab: '\t',
  escape: '\u001B',
  backspace: '\u007F',
  ctrlC: '\u0003',
} as const;

const actEnvironment = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };

/**
 * Does `work` (a key, an event), then lets Ink read input, React commit and effects run. React's
 * act() runs what they schedule (renders, effects, the next key of the app's queue) before it
 * returns, not on timers: the frame shows all the work did, however loaded the machine is.
 * React expects act() only where IS_REACT_ACT_ENVIRONMENT is set, and then warns of updates
 * made outside act(), such as a gate's or a replay player's: it is set for act()'s time only.
 */
export async function settle(work: () => void = () => undefined): Promise<void> {
  actEnvironment.IS_REACT_ACT_ENVIRONMENT = true;
  try {
    await act(async () => {
      work();
      for (let round = 0; round < 3; round++) {
        await new Promise((resolve) => setImmediate(resolve));
      }
    });
  } finally {
    actEnvironment.IS_REACT_ACT_ENVIRONMENT = false;
  }
}

/**
 * The reads a terminal makes of `keys` typed at once: one read, except that a lone escape ends
 * one (followed by more in the same read, it would be Alt and the next key).
 */
export function terminalReads(keys: readonly string[]): string[] {
  const reads = [''];
  for (const key of keys) {
    reads[reads.length - 1] += key;
    if (key === KEYS.escape) reads.push('');
  }
  return reads.filter((read) => read !== '');
}

export interface MountOptions {
  events?: readonly MissionEvent[];
  bus?: EventBus;
  /** Any event source (a live run's subscribers), like `renderTui` takes. */
  subscribe?: (listener: (event: MissionEvent) => void) => () => void;
  gate?: DebugGate;
  replay?: ReplayPlayer;
  cancel?: () => void;
  /** Makes forks (`f`, `e`). */
  forker?: TuiForker;
  /** Takes the person's answers to questions (`a`). */
  human?: HumanDeskAnswers;
  /** Takes the person's budget raises (the budget prompt). */
  budgets?: BudgetRaising;
  /** The terminal's size (ink-testing-library's stream is 100 columns and knows no rows). */
  columns?: number;
  rows?: number;
}

export interface Mounted {
  store: TuiStore;
  frame(): string;
  /** Types `keys` as fast as one terminal read takes them (see `terminalReads`). */
  press(...keys: string[]): Promise<void>;
  /** Publishes events queued in the store and lets the frame follow. */
  sync(): Promise<void>;
  unmount(): void;
}

/** Renders the App fed by `events` (and a live `bus`, when given). */
export async function mountApp(options: MountOptions = {}): Promise<Mounted> {
  const store = createTuiStore({ intervalMs: 0 });
  for (const event of options.events ?? []) store.dispatch(event);
  const stopBus = options.bus?.subscribe((event) => store.dispatch(event));
  const stopSource = options.subscribe?.((event) => store.dispatch(event));
  store.flush();
  let instance: ReturnType<typeof render> | undefined;
  const element = (
    <App
      store={store}
      cancel={options.cancel ?? (() => undefined)}
      gate={options.gate}
      replay={options.replay}
      forker={options.forker}
      human={options.human}
      budgets={options.budgets}
      now={() => Date.UTC(2026, 0, 1, 0, 0, 10)}
    />
  );
  await settle(() => {
    instance = render(element);
    if (options.columns !== undefined || options.rows !== undefined) {
      // A terminal resized to the size asked for: Ink and the App both follow `resize`.
      const stdout = instance.stdout as unknown as NodeJS.EventEmitter & { rows?: number };
      Object.defineProperty(stdout, 'columns', { value: options.columns ?? 100 });
      stdout.rows = options.rows ?? 30;
      stdout.emit('resize');
    }
  });
  return mounted(store, instance as ReturnType<typeof render>, () => {
    stopBus?.();
    stopSource?.();
  });
}

function mounted(store: TuiStore, instance: ReturnType<typeof render>, stop: () => void): Mounted {
  return {
    store,
    frame: () => instance.lastFrame() ?? '',
    async press(...keys) {
      for (const read of terminalReads(keys)) await settle(() => instance.stdin.write(read));
    },
    async sync() {
      await settle(() => store.flush());
    },
    unmount() {
      stop();
      instance.unmount();
      store.dispose();
    },
  };
}
