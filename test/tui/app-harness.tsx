/** Mounts the App with ink-testing-library (100×30 unless told) and sends keys to it. */
import { render } from 'ink-testing-library';
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

/** Lets Ink read input, React commit and effects run. */
export async function settle(): Promise<void> {
  for (let round = 0; round < 3; round++) await new Promise((resolve) => setImmediate(resolve));
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
  /** The terminal's size (ink-testing-library's stream is 100 columns and knows no rows). */
  columns?: number;
  rows?: number;
}

export interface Mounted {
  store: TuiStore;
  frame(): string;
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
  const instance = render(
    <App
      store={store}
      cancel={options.cancel ?? (() => undefined)}
      gate={options.gate}
      replay={options.replay}
      forker={options.forker}
      human={options.human}
      now={() => Date.UTC(2026, 0, 1, 0, 0, 10)}
    />,
  );
  if (options.columns !== undefined || options.rows !== undefined) {
    // A terminal resized to the size asked for: Ink and the App both follow `resize`.
    const stdout = instance.stdout as unknown as NodeJS.EventEmitter & { rows?: number };
    Object.defineProperty(stdout, 'columns', { value: options.columns ?? 100 });
    stdout.rows = options.rows ?? 30;
    stdout.emit('resize');
  }
  await settle();
  return {
    store,
    frame: () => instance.lastFrame() ?? '',
    async press(...keys) {
      for (const key of keys) {
        instance.stdin.write(key);
        await settle();
      }
    },
    async sync() {
      store.flush();
      await settle();
    },
    unmount() {
      stopBus?.();
      stopSource?.();
      instance.unmount();
      store.dispose();
    },
  };
}
