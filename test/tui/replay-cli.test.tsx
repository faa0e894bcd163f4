/**
 * `sortie replay` in the TUI through the command's own path (`playInTui` of
 * src/cli/replay-tui.ts), drawn by ink-testing-library, on the journal of a real run: the
 * offline hello demo, run by the CLI from its shipped cassette.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { render } from 'ink-testing-library';
import { useEffect, type ReactNode } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { playInTui } from '../../src/cli/replay-tui.ts';
import { readJournal } from '../../src/journal/reader.ts';
import type { MissionEvent } from '../../src/base/events.ts';
import { App, createTuiStore, type RenderTuiOptions, type TuiHandle } from '../../src/tui/index.ts';
import type { ReplayStatus, ReplayTimers } from '../../src/tui/replay-player.ts';
import { settle } from './app-harness.tsx';
import { temporaryDirectorySync } from '../helpers/temp-dir.ts';

const ROOT = join(import.meta.dirname, '../..');
const directory = temporaryDirectorySync('replay-tui');

/** Timers that fire only when the test says so; `pending` tells whether one is set. */
function manualTimers(): ReplayTimers & { fire(): void; pending(): boolean } {
  let callback: (() => void) | undefined;
  return {
    setTimeout: (next) => {
      callback = next;
      return 1;
    },
    clearTimeout: () => {
      callback = undefined;
    },
    now: () => 0,
    fire: () => {
      const due = callback;
      callback = undefined;
      due?.();
    },
    pending: () => callback !== undefined,
  };
}

/** Calls `onUnmount` when Ink unmounts the tree (the app's exit). */
function OnUnmount({ onUnmount, children }: { onUnmount: () => void; children: ReactNode }) {
  useEffect(() => onUnmount, [onUnmount]);
  return children;
}

/**
 * What `renderTui` does, drawn by ink-testing-library instead of the terminal: a store fed by
 * the player, the App in replay mode. The store publishes only on `sync` so frames are exact.
 */
function testRenderer() {
  const store = createTuiStore({ intervalMs: 60_000 });
  let instance: ReturnType<typeof render> | undefined;
  let given: RenderTuiOptions | undefined;
  const renderer = (options: RenderTuiOptions): TuiHandle => {
    given = options;
    const unsubscribe = options.subscribe((event) => store.dispatch(event));
    let exited = (): void => undefined;
    const exit = new Promise<void>((resolve) => (exited = resolve));
    instance = render(
      <OnUnmount onUnmount={() => exited()}>
        <App
          store={store}
          cancel={options.cancel}
          replay={options.replay}
          title={options.title}
          now={() => 0}
        />
      </OnUnmount>,
    );
    return {
      waitUntilExit: () => exit.then(unsubscribe),
      unmount: () => instance?.unmount(),
    };
  };
  return {
    renderer,
    given: () => given,
    /** The header line. */
    header: () =>
      (instance?.lastFrame() ?? '').split('\n').find((line) => line.includes(' ▶ replay ')) ?? '',
    frame: () => instance?.lastFrame() ?? '',
    async press(...keys: string[]) {
      for (const key of keys) {
        instance?.stdin.write(key);
        await settle();
      }
      store.flush();
      await settle();
    },
    dispose: () => store.dispose(),
  };
}

let events: MissionEvent[] = [];
let runId = '';
let screen: ReturnType<typeof testRenderer> | undefined;

beforeAll(async () => {
  const stateDir = join(directory, 'state');
  const demo = spawnSync(
    process.execPath,
    [
      'bin/sortie.js',
      'run',
      'examples/hello',
      '--replay-model',
      'examples/hello/cassette.jsonl',
      '--state-dir',
      stateDir,
      '--quiet',
    ],
    { cwd: ROOT, encoding: 'utf8', env: { ...process.env, CI: '1', OPENAI_API_KEY: undefined } },
  );
  expect(demo.status).toBe(0);
  runId = String(readdirSync(join(stateDir, 'runs'))[0]);
  events = (await readJournal(join(stateDir, 'runs', runId, 'journal.jsonl'))).events;
}, 60_000);

afterEach(() => {
  screen?.dispose();
  screen = undefined;
});

/** Starts `playInTui` paused on manual timers; `done` settles when the person quits. */
async function play(paused: boolean) {
  screen = testRenderer();
  const timers = manualTimers();
  const done: Promise<ReplayStatus> = playInTui(events, {
    speed: 1,
    paused,
    timers,
    render: screen.renderer,
  });
  // playInTui imports the TUI before it draws.
  while (screen.given() === undefined) await settle();
  await screen.press();
  return { screen, timers, done };
}

describe('sortie replay in the TUI (playInTui, ink-testing-library, a real journal)', () => {
  it('titles the screen with the run id and starts paused at the first event', async () => {
    const { screen } = await play(true);
    expect(screen.given()?.title).toBe(`replay ${runId}`);
    // At 100 columns the header keeps the run facts and the replay state; the title (the
    // window's) is the first thing it leaves out.
    expect(screen.header()).toBe(
      `mission … · run … · ○ pending · 00:00.0 · 0 tok · $0.0000 ▶ replay ×1 paused 0/${events.length}`,
    );
  });

  it('steps event by event with n, and the tree follows the journal', async () => {
    const { screen } = await play(true);
    const taskStarted = events.findIndex((event) => event.type === 'task.started');
    expect(taskStarted).toBeGreaterThan(1);
    await screen.press(...Array.from({ length: taskStarted }, () => 'n'));
    expect(screen.header()).toContain(`▶ replay ×1 paused ${taskStarted}/${events.length}`);
    expect(screen.header()).toContain('mission hello');
    expect(screen.frame()).not.toContain('greet');
    await screen.press('n');
    expect(screen.header()).toContain(`▶ replay ×1 paused ${taskStarted + 1}/${events.length}`);
    expect(screen.frame()).toMatch(/● greet/);
  });

  it('plays with space, pauses with space, and keeps the speed keys within ×0.25 to ×64', async () => {
    const { screen, timers } = await play(true);
    await screen.press('+', '+');
    expect(screen.header()).toContain(`▶ replay ×4 paused 0/${events.length}`);
    await screen.press('-', '-', '-', '-', '-', '-');
    expect(screen.header()).toContain(`▶ replay ×0.25 paused 0/${events.length}`);
    await screen.press('+', '+');
    await screen.press(' ');
    expect(screen.header()).toContain(`▶ replay ×1 playing 0/${events.length}`);
    timers.fire();
    timers.fire();
    await screen.press();
    expect(screen.header()).toContain(`▶ replay ×1 playing 2/${events.length}`);
    await screen.press(' ');
    expect(screen.header()).toContain(`▶ replay ×1 paused 2/${events.length}`);
    // Paused means no event is due.
    expect(timers.pending()).toBe(false);
  });

  it('jumps to the end with G and shows the run finishing as the journal recorded it', async () => {
    const { screen, done } = await play(true);
    await screen.press('G');
    expect(screen.header()).toContain(`▶ replay ×1 end ${events.length}/${events.length}`);
    expect(screen.header()).toContain('mission hello · run …');
    expect(screen.header()).toContain(' · ✓ succeeded · ');
    expect(events.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'succeeded' });
    await screen.press('q');
    expect(await done).toEqual({
      speed: 1,
      paused: true,
      position: events.length,
      total: events.length,
      finished: true,
    });
  });

  it('leaves no event timer behind when the person quits mid-replay', async () => {
    const { screen, timers, done } = await play(false);
    timers.fire();
    await screen.press();
    expect(screen.header()).toContain(`▶ replay ×1 playing 1/${events.length}`);
    expect(timers.pending()).toBe(true);
    await screen.press('q');
    const status = await done;
    expect(status.position).toBe(1);
    // A pending timer would keep `sortie replay` alive, playing to nobody, after the TUI closed.
    expect(timers.pending()).toBe(false);
  });
});
