import type { MissionEvent } from '../runtime/events.ts';

/** Plays recorded events in the TUI (pause, step, speed keys) until the person quits. */
export async function playInTui(events: readonly MissionEvent[], speed: number): Promise<void> {
  const { createReplayPlayer, renderTui } = await import('../tui/index.ts');
  const player = createReplayPlayer(events, { speed });
  const runId = events[0]?.runId ?? '';
  const tui = renderTui({
    subscribe: (listener) => player.subscribe(listener),
    cancel: () => undefined,
    replay: player,
    title: `replay ${runId}`,
    stdout: process.stdout,
    stdin: process.stdin,
  });
  await tui.waitUntilExit();
}
