/**
 * The TUI half of `sortie replay`: a player over the journal's events drawn by the run TUI in
 * replay mode (pause, step, speed keys) until the person quits.
 */
import type { MissionEvent } from '../base/events.ts';
import type { RenderTuiOptions, TuiForker, TuiHandle } from '../tui/index.ts';
import type { ReplayStatus, ReplayTimers } from '../tui/replay-player.ts';

/** How to play; everything but the speed has the terminal's defaults. */
export interface PlayOptions {
  /** 1 = recorded pace, 2 = twice as fast. */
  speed: number;
  /** Wait at held gate points as long as the recorded run did. Default false. */
  keepPauses?: boolean;
  /** Whether the screen may use colour (`NO_COLOR` says no). Default true. */
  color?: boolean;
  /** Start paused (the person steps with n or plays with space). Default false. */
  paused?: boolean;
  /** The player's clock (tests pass manual timers). */
  timers?: ReplayTimers;
  /** Makes forks (`f`, `e`) of a run of a state directory; the TUI quits once one is chosen. */
  forker?: TuiForker;
  /** Draws the TUI; default `renderTui` on the process's terminal (tests draw with ink-testing-library). */
  render?: (options: RenderTuiOptions) => TuiHandle;
}

/** Plays recorded events in the TUI until the person quits; resolves with where the player stopped. */
export async function playInTui(
  events: readonly MissionEvent[],
  options: PlayOptions,
): Promise<ReplayStatus> {
  const { createReplayPlayer, renderTui } = await import('../tui/index.ts');
  const player = createReplayPlayer(events, {
    speed: options.speed,
    paused: options.paused ?? false,
    keepPauses: options.keepPauses ?? false,
    ...(options.timers === undefined ? {} : { timers: options.timers }),
  });
  const runId = events[0]?.runId ?? '';
  const render = options.render ?? renderTui;
  const tui = render({
    subscribe: (listener) => player.subscribe(listener),
    cancel: () => undefined,
    replay: player,
    title: `replay ${runId}`,
    color: options.color ?? true,
    ...(options.forker === undefined ? {} : { forker: options.forker }),
    stdout: process.stdout,
    stdin: process.stdin,
  });
  await tui.waitUntilExit();
  // Quitting mid-replay must not leave the next event's timer holding the process open
  // until the rest of the recorded run has played to nobody.
  player.pause();
  return player.status();
}
