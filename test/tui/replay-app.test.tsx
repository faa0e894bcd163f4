import { afterEach, describe, expect, it } from 'vitest';
import { createReplayPlayer, type ReplayTimers } from '../../src/tui/replay-player.ts';
import { mountApp, type Mounted } from './app-harness.tsx';
import { fixtureEvents } from './fixture.ts';

/** Timers that only fire when the test says so. */
function manualTimers(): ReplayTimers & { fire(): void } {
  let pending: (() => void) | undefined;
  return {
    setTimeout: (callback) => {
      pending = callback;
      return 1;
    },
    clearTimeout: () => {
      pending = undefined;
    },
    now: () => 0,
    fire: () => {
      const callback = pending;
      pending = undefined;
      callback?.();
    },
  };
}

let mounted: Mounted | undefined;
afterEach(() => {
  mounted?.unmount();
  mounted = undefined;
});

async function mountReplay() {
  const events = fixtureEvents(true);
  const timers = manualTimers();
  const player = createReplayPlayer(events, { paused: true, timers });
  const app = await mountApp({ events: [], replay: player });
  mounted = app;
  player.subscribe((event) => app.store.dispatch(event));
  return { app, player, timers, total: events.length };
}

describe('App in replay mode', () => {
  it('steps one event with n and shows the player in the header', async () => {
    const { app, total } = await mountReplay();
    expect(app.frame().split('\n')[0]).toContain(`▶ replay ×1 paused 0/${total}`);
    await app.press('n');
    await app.sync();
    expect(app.frame().split('\n')[0]).toContain(`▶ replay ×1 paused 1/${total}`);
    expect(app.frame().split('\n')[0]).toContain('mission research');
    await app.press('n', 'n');
    await app.sync();
    // Elapsed time follows the journal's clock (events 100 ms apart), not today's.
    expect(app.frame().split('\n')[0]).toContain('· 00:00.2 ·');
  });

  it('changes speed with + and -, plays with space and jumps to the end with G', async () => {
    const { app, player, timers, total } = await mountReplay();
    await app.press('+', '+');
    expect(player.status().speed).toBe(4);
    await app.press('-');
    expect(player.status().speed).toBe(2);
    await app.press(' ');
    expect(player.status().paused).toBe(false);
    timers.fire();
    timers.fire();
    expect(player.status().position).toBe(2);
    await app.press('G');
    await app.sync();
    expect(player.status()).toMatchObject({ position: total, finished: true });
    // The outcome is the header's; the summary line waits for the TUI to leave the screen.
    expect(app.frame().split('\n')[0]).toMatch(/^mission research · run run-1 · ✗ failed/);
    expect(app.frame()).toContain(`▶ replay ×2 end ${total}/${total}`);
  });

  it('offers replay keys instead of the debugger keys', async () => {
    const { app } = await mountReplay();
    const footer = app.frame().split('\n').slice(-2);
    expect(footer).toEqual([
      'enter/→ expand  tab pane  1 tree  2 costs  3 events  4 outputs  space pause  n next event',
      '+/= faster  - slower  G to end  ? all keys  q quit',
    ]);
  });
});

describe('the item table in replay', () => {
  it('shows the replayed iterated task’s items, sorted and filtered like a live run’s', async () => {
    const { app } = await mountReplay();
    await app.press('G');
    await app.sync();
    await app.press('5');
    await app.sync();
    const table = (): string[] => {
      const lines = app.frame().split('\n');
      return lines.slice(lines.findIndex((line) => line.startsWith('items of analyze')));
    };
    expect(table().slice(0, 4)).toEqual([
      'items of analyze · 20 of 20 items · status all',
      '    #▲ status     retries  turns   tokens     cost     time  output / error',
      '›    0 succeeded        0      1      110 $0.0000*     30ms  {"temperature":20}',
      '     1 succeeded        0      1      110 $0.0000*     30ms  {"temperature":21}',
    ]);
    await app.press('t', 't', 't');
    await app.sync();
    expect(table().slice(0, 3)).toEqual([
      'items of analyze · 1 of 20 items · status failed',
      '    #▲ status     retries  turns   tokens     cost     time  output / error',
      '›    6 failed           0      1      110 $0.0000*     3.4s  no data for city-6',
    ]);
  });
});
