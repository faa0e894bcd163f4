/** A synthetic run emitted through the real EventBus, shared by the journal tests. */
import { EventBus } from '../../src/runtime/event-bus.ts';
import type { EventInput, MissionEvent, ModelReference } from '../../src/base/events.ts';
import type { Usage } from '../../src/models/model-types.ts';

/** A clock that advances one second per event from `start`. */
export function steppingClock(start: string): () => Date {
  let tick = 0;
  const base = Date.parse(start);
  return () => new Date(base + 1000 * tick++);
}

export const gpt: ModelReference = {
  provider: 'openai',
  config: 'openai',
  key: 'gpt',
  apiName: 'gpt-4o',
};
export const local: ModelReference = {
  provider: 'ollama',
  config: 'local',
  key: 'small',
  apiName: 'llama3.2:3b',
};

function usage(input: number, output: number): Usage {
  return { input, output, cacheRead: 0, cacheWrite: 0, reasoning: 0 };
}

function response(
  actor: string,
  requestId: string,
  model: ModelReference,
  tokens: [number, number],
  costPico: string,
  unpriced = false,
): EventInput {
  return {
    type: 'model.response',
    actor,
    requestId,
    model,
    message: { role: 'assistant', parts: [{ type: 'text', text: `answer ${requestId}` }] },
    usage: usage(...tokens),
    costPico,
    unpriced,
    stopReason: 'end',
    durationMs: 500,
  };
}

/** The inputs of the sample run, in order (deltas included: the journal must drop them). */
export function sampleRunInputs(finished: boolean): EventInput[] {
  const inputs: EventInput[] = [
    { type: 'run.started', actor: 'run', mission: 'research', resumed: false },
    {
      type: 'mission.started',
      actor: 'mission:research',
      mission: 'research',
      inputs: { topic: 'stars' },
      chainedFrom: null,
    },
    {
      type: 'task.started',
      actor: 'task:fetch',
      task: 'fetch',
      activatedBy: null,
      iterated: false,
    },
    {
      type: 'model.request',
      actor: 'commander:fetch',
      requestId: 'r1',
      model: gpt,
      turn: 1,
      system: 'You are the commander.',
      messageCount: 1,
      tools: [],
      reasoning: null,
    },
    { type: 'model.delta', actor: 'commander:fetch', requestId: 'r1', text: 'answ' },
    response('commander:fetch', 'r1', gpt, [1000, 200], '4500000000'),
    {
      type: 'message.appended',
      actor: 'commander:fetch',
      conversation: 'commander:fetch',
      message: { role: 'assistant', parts: [{ type: 'text', text: 'answer r1' }] },
    },
    {
      type: 'task.succeeded',
      actor: 'task:fetch',
      task: 'fetch',
      summary: 'Fetched 3 pages',
      output: { pages: 3 },
      route: null,
      durationMs: 3200,
    },
    {
      type: 'task.started',
      actor: 'task:weather',
      task: 'weather',
      activatedBy: null,
      iterated: true,
    },
    {
      type: 'iteration.started',
      actor: 'commander:weather[0]',
      task: 'weather',
      index: 0,
      itemId: 'paris',
      attempt: 1,
    },
    {
      type: 'iteration.started',
      actor: 'commander:weather[1]',
      task: 'weather',
      index: 1,
      itemId: 'rome',
      attempt: 1,
    },
    response('agent:weather[0]/researcher', 'r2', local, [300, 50], '0', true),
    {
      type: 'iteration.succeeded',
      actor: 'commander:weather[0]',
      task: 'weather',
      index: 0,
      itemId: 'paris',
      attempt: 1,
      output: { temp: 3 },
      durationMs: 900,
    },
    {
      type: 'iteration.failed',
      actor: 'commander:weather[1]',
      task: 'weather',
      index: 1,
      itemId: 'rome',
      attempt: 1,
      error: 'timeout',
      final: false,
    },
    {
      type: 'iteration.started',
      actor: 'commander:weather[1]',
      task: 'weather',
      index: 1,
      itemId: 'rome',
      attempt: 2,
    },
    {
      type: 'iteration.failed',
      actor: 'commander:weather[1]',
      task: 'weather',
      index: 1,
      itemId: 'rome',
      attempt: 2,
      error: 'timeout again',
      final: true,
    },
    {
      type: 'task.succeeded',
      actor: 'task:weather',
      task: 'weather',
      summary: '1 of 2 cities',
      output: null,
      route: null,
      durationMs: 65_000,
    },
    {
      type: 'task.started',
      actor: 'task:analyze',
      task: 'analyze',
      activatedBy: null,
      iterated: false,
    },
    response('commander:analyze', 'r3', gpt, [10_000, 1_234], '37120000000'),
    {
      type: 'task.failed',
      actor: 'task:analyze',
      task: 'analyze',
      error: 'no data',
      durationMs: 800,
    },
    {
      type: 'task.skipped',
      actor: 'task:report',
      task: 'report',
      reason: 'upstream_failed',
      cause: 'analyze',
    },
    { type: 'warning', actor: 'run', code: 'test', message: 'something odd' },
  ];
  if (!finished) return inputs;
  return [
    ...inputs,
    {
      type: 'mission.failed',
      actor: 'mission:research',
      mission: 'research',
      error: 'task analyze failed',
      failedTask: 'analyze',
      durationMs: 70_000,
    },
    {
      type: 'run.finished',
      actor: 'run',
      outcome: 'failed',
      exitCode: 1,
      durationMs: 71_500,
      usage: usage(11_300, 1_484),
      costPico: '41620000000',
    },
  ];
}

/** Emits the sample run on a new bus with the given subscribers; returns every event seen. */
export function emitSampleRun(
  runId: string,
  start: string,
  subscribers: Array<(event: MissionEvent) => void>,
  finished = true,
): MissionEvent[] {
  const bus = new EventBus({ runId, now: steppingClock(start) });
  const seen: MissionEvent[] = [];
  bus.subscribe((event) => seen.push(event));
  for (const subscriber of subscribers) bus.subscribe(subscriber);
  for (const input of sampleRunInputs(finished)) bus.emit(input);
  return seen;
}
