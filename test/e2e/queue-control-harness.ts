/**
 * A distributed run driven from the test's own process (the library's `startRun` with the
 * run's item queue on a real Redis), its items on real `sortie worker` processes: the test
 * holds the run's step gate and answers for its person, as the TUI would.
 */
import { loadProject } from '../../src/config/index.ts';
import type { MissionEvent } from '../../src/base/events.ts';
import type { RunHandle, RunOptions, RunResult } from '../../src/actors/contracts.ts';
import { gateNoticeEvent, type DebugGate } from '../../src/runtime/gate.ts';
import { openRunQueue } from '../../src/run/queue-run.ts';
import { newRunId, startRun } from '../../src/run/start-run.ts';
import type { ScriptTurn } from '../../src/testing/index.ts';

/** Where the queued run goes and what drives it. */
export interface QueuedRunOptions {
  root: string;
  stateDir: string;
  redisUrl: string;
  baseUrl: string;
  gate?: DebugGate;
  human?: RunOptions['human'];
  keepGoing?: boolean;
  /** More listeners of the run's events (e.g. a journal). */
  subscribers?: RunOptions['subscribers'];
}

/** A started queued run: its handle, every event of its bus so far, its end. */
export interface QueuedRun {
  handle: RunHandle;
  events: MissionEvent[];
  done: Promise<RunResult>;
}

/** Starts mission `pages` of the project at `root` with its parallel items on the queue. */
export async function startQueuedRun(options: QueuedRunOptions): Promise<QueuedRun> {
  const vars = { api_key: 'sk-test-run', base_url: options.baseUrl };
  const config = await loadProject(options.root, { vars, env: {} });
  const mission = config.missions.get('pages');
  if (mission === undefined) throw new Error('the project has no mission "pages"');
  const runId = newRunId();
  const queue = await openRunQueue({
    url: options.redisUrl,
    runId,
    root: config.root,
    stateDir: options.stateDir,
    mission,
    inputs: {},
    debugging: options.gate !== undefined,
  });
  const events: MissionEvent[] = [];
  const handle = startRun({
    runId,
    config,
    mission: 'pages',
    inputs: {},
    stateDir: options.stateDir,
    itemQueue: queue,
    keepGoing: options.keepGoing === true,
    subscribers: [(event) => events.push(event), ...(options.subscribers ?? [])],
    ...(options.gate !== undefined ? { gate: options.gate } : {}),
    ...(options.human !== undefined ? { human: options.human } : {}),
  });
  // As `sortie run` does: the gate's pauses become events of the run.
  options.gate?.onNotice((notice) => handle.bus.emit(gateNoticeEvent(notice)));
  const done = handle.done.then(async (result) => {
    await queue.close(result.status === 'succeeded');
    return result;
  });
  return { handle, events, done };
}

/** Resolves once the gate holds `count` points (checked at each of its notices). */
export function heldPoints(gate: DebugGate, count: number): Promise<void> {
  return new Promise((resolve) => {
    const check = (): void => {
      if (gate.held().length < count) return;
      remove();
      resolve();
    };
    const remove = gate.onNotice(check);
    check();
  });
}

/** The events of `type`, narrowed. */
export function eventsOf<Type extends MissionEvent['type']>(
  events: readonly MissionEvent[],
  type: Type,
): Array<Extract<MissionEvent, { type: Type }>> {
  return events.filter(
    (event): event is Extract<MissionEvent, { type: Type }> => event.type === type,
  );
}

/** The reader agent's first turn asks the person which page to read (`builtins_human_ask`). */
export function askTurn(index: number): ScriptTurn {
  return {
    toolCalls: [{ name: 'builtins_human_ask', arguments: { question: `Read page ${index}?` } }],
    usage: { input: 20, output: 5 },
  };
}
