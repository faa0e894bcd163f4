/**
 * A small realistic run emitted through the real EventBus: mission `research` with task
 * `fetch` (a commander delegating to agent `researcher`, which calls builtins_http_get on a
 * local model) and iterated task `analyze` over 20 items on an unpriced model, of which 6
 * succeeded, 1 failed for good and 13 are still running.
 */
import { EventBus } from '../../src/runtime/event-bus.ts';
import type { EventInput, MissionEvent } from '../../src/base/events.ts';

const START = Date.UTC(2026, 0, 1, 0, 0, 0);

/** A bus whose clock advances 100 ms per event, from 2026-01-01T00:00:00Z. */
export function testBus(runId = 'run-1'): EventBus {
  let tick = 0;
  return new EventBus({ runId, now: () => new Date(START + 100 * tick++) });
}

const usage = (input: number, output: number, cacheRead = 0) => ({
  input,
  output,
  cacheRead,
  cacheWrite: 0,
  reasoning: 0,
});

const text = (role: 'user' | 'assistant', body: string) => ({
  role,
  parts: [{ type: 'text' as const, text: body }],
});

const models = {
  fast: { provider: 'openai' as const, config: 'main', key: 'fast', apiName: 'gpt-fast' },
  local: { provider: 'ollama' as const, config: 'local', key: 'llama', apiName: 'llama3' },
  mystery: { provider: 'openai' as const, config: 'custom', key: 'mystery', apiName: 'mystery-1' },
};

function response(
  actor: string,
  requestId: string,
  model: keyof typeof models,
  costPico: string,
  unpriced: boolean,
  input: number,
  output: number,
): EventInput {
  return {
    type: 'model.response',
    actor,
    requestId,
    model: models[model],
    message: text('assistant', 'done'),
    usage: usage(input, output, model === 'fast' ? 500 : 0),
    costPico,
    unpriced,
    stopReason: 'end',
    durationMs: 50,
  };
}

function request(actor: string, requestId: string, model: keyof typeof models): EventInput {
  return {
    type: 'model.request',
    actor,
    requestId,
    model: models[model],
    turn: 1,
    system: `You are ${actor}. Follow the objective.`,
    messageCount: 0,
    tools: [],
    reasoning: null,
  };
}

/** The `fetch` task: commander → researcher → http tool. */
export function emitFetchTask(bus: EventBus): void {
  bus.emit({ type: 'run.started', actor: 'run', mission: 'research', resumed: false });
  bus.emit({
    type: 'mission.started',
    actor: 'mission:research',
    mission: 'research',
    inputs: {},
    chainedFrom: null,
  });
  bus.emit({
    type: 'task.started',
    actor: 'task:fetch',
    task: 'fetch',
    activatedBy: null,
    iterated: false,
  });
  bus.emit(request('commander:fetch', 'r1', 'fast'));
  bus.emit({
    type: 'message.appended',
    actor: 'commander:fetch',
    conversation: 'commander:fetch',
    message: text('user', 'Fetch the weather page.'),
  });
  bus.emit({ type: 'model.delta', actor: 'commander:fetch', requestId: 'r1', text: 'Asking the ' });
  bus.emit(response('commander:fetch', 'r1', 'fast', '1200000000', false, 1000, 200));
  bus.emit({
    type: 'plan.updated',
    actor: 'commander:fetch',
    task: 'fetch',
    index: null,
    subtasks: [
      { index: 0, title: 'Download the page', status: 'in_progress' },
      { index: 1, title: 'Summarise it', status: 'pending' },
    ],
  });
  bus.emit({
    type: 'tool.called',
    actor: 'commander:fetch',
    callId: 'c1',
    tool: 'call_agent',
    arguments: '{"name":"researcher","task":"download"}',
  });
  bus.emit(request('agent:fetch/researcher', 'r2', 'local'));
  bus.emit({
    type: 'tool.called',
    actor: 'agent:fetch/researcher',
    callId: 'c2',
    tool: 'builtins_http_get',
    arguments: '{"url":"http://127.0.0.1/weather"}',
  });
  bus.emit({
    type: 'tool.completed',
    actor: 'agent:fetch/researcher',
    callId: 'c2',
    tool: 'builtins_http_get',
    result: '{"status":200}',
    isError: false,
    durationMs: 12,
  });
  bus.emit(response('agent:fetch/researcher', 'r2', 'local', '0', false, 300, 40));
  bus.emit({
    type: 'tool.completed',
    actor: 'commander:fetch',
    callId: 'c1',
    tool: 'call_agent',
    result: 'sunny',
    isError: false,
    durationMs: 80,
  });
  bus.emit({
    type: 'output.submitted',
    actor: 'commander:fetch',
    task: 'fetch',
    index: null,
    output: { forecast: 'sunny' },
    replaced: false,
  });
  bus.emit({
    type: 'task.succeeded',
    actor: 'task:fetch',
    task: 'fetch',
    summary: 'Fetched the forecast.',
    output: { forecast: 'sunny' },
    route: null,
    durationMs: 900,
  });
}

/** The `analyze` task over 20 items: 6 succeeded, item 6 failed for good, 13 running. */
export function emitAnalyzeTask(bus: EventBus): void {
  bus.emit({
    type: 'task.started',
    actor: 'task:analyze',
    task: 'analyze',
    activatedBy: null,
    iterated: true,
  });
  bus.emit({
    type: 'dataset.locked',
    actor: 'cursor:analyze',
    dataset: 'cities',
    task: 'analyze',
    count: 20,
  });
  for (let index = 0; index < 20; index++) {
    bus.emit({
      type: 'iteration.started',
      actor: 'cursor:analyze',
      task: 'analyze',
      index,
      itemId: `city-${index}`,
      attempt: 1,
    });
    bus.emit(response(`commander:analyze[${index}]`, `a${index}`, 'mystery', '0', true, 100, 10));
  }
  for (let index = 0; index < 6; index++) {
    bus.emit({
      type: 'iteration.succeeded',
      actor: 'cursor:analyze',
      task: 'analyze',
      index,
      itemId: `city-${index}`,
      attempt: 1,
      output: { temperature: 20 + index },
      durationMs: 30,
    });
  }
  bus.emit({
    type: 'iteration.failed',
    actor: 'cursor:analyze',
    task: 'analyze',
    index: 6,
    itemId: 'city-6',
    attempt: 1,
    error: 'no data for city-6',
    final: true,
  });
}

/** Everything of the fixture run, in order. */
export function fixtureEvents(finish = false): MissionEvent[] {
  const bus = testBus();
  const events: MissionEvent[] = [];
  bus.subscribe((event) => events.push(event));
  emitFetchTask(bus);
  emitAnalyzeTask(bus);
  if (finish) {
    bus.emit({
      type: 'mission.failed',
      actor: 'mission:research',
      mission: 'research',
      error: 'analyze failed',
      failedTask: 'analyze',
      durationMs: 9000,
    });
    bus.emit({
      type: 'run.finished',
      actor: 'run',
      outcome: 'failed',
      exitCode: 1,
      durationMs: 9500,
      usage: usage(3300, 440, 500),
      costPico: '1200000000',
    });
  }
  return events;
}
