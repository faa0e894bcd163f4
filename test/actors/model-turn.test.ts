import { afterEach, describe, expect, it } from 'vitest';
import { createRunModelTurn } from '../../src/actors/model-turn.ts';
import type { ModelClientFactory } from '../../src/models/create-client.ts';
import { BudgetExceededError } from '../../src/base/errors.ts';
import { CostLedger } from '../../src/models/cost-ledger.ts';
import { createModelClient } from '../../src/models/create-client.ts';
import { ModelDeclinedError } from '../../src/models/stop-reasons.ts';
import type { ResolvedModel } from '../../src/models/model-types.ts';
import { BudgetTracker, type BudgetLimits } from '../../src/runtime/budget.ts';
import { EventBus } from '../../src/runtime/event-bus.ts';
import type { MissionEvent } from '../../src/base/events.ts';
import { DebugGate, openGate, type StepGate } from '../../src/runtime/gate.ts';
import { ScriptedModelServer } from '../../src/testing/server.ts';

let server: ScriptedModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const ACTOR = 'agent:analyze/researcher';

function gpt4o(baseUrl: string): ResolvedModel {
  return {
    provider: 'openai',
    config: 'openai',
    key: 'gpt_4o',
    apiName: 'gpt-4o',
    baseUrl,
    apiKey: 'sk-test-0123456789',
    promptCaching: true,
    reasoningCapable: false,
    pricing: { input: 2.5, output: 10, cacheRead: 1.25, cacheWrite: 0 },
  };
}

/** Real clients with instant, deterministic retry waits. */
const instantRetryClients: ModelClientFactory = (model, hooks) =>
  createModelClient(model, {
    onRetry: hooks.onRetry,
    retry: { sleep: () => Promise.resolve(), random: () => 0 },
  });

function setup(
  options: { gate?: StepGate; taskLimits?: BudgetLimits; clients?: ModelClientFactory } = {},
) {
  const events: MissionEvent[] = [];
  const bus = new EventBus({ runId: 'run-1', now: () => new Date('2026-01-01T00:00:00Z') });
  bus.subscribe((event) => events.push(event));
  const budgets = new BudgetTracker({
    mission: 'm',
    taskLimits: options.taskLimits === undefined ? {} : { analyze: options.taskLimits },
  });
  const costs = new CostLedger();
  const runModelTurn = createRunModelTurn({
    bus,
    gate: options.gate ?? openGate,
    budgets,
    costs,
    clients: options.clients ?? instantRetryClients,
  });
  return { events, budgets, costs, runModelTurn };
}

function request(model: ResolvedModel, text = 'Find the capital of France') {
  return {
    actor: ACTOR,
    task: 'analyze',
    model,
    system: 'You research.',
    messages: [{ role: 'user' as const, parts: [{ type: 'text' as const, text }] }],
    tools: [],
    signal: new AbortController().signal,
  };
}

/** Events without the envelope fields that carry no meaning for these checks. */
function summary(events: MissionEvent[]): Array<[string, string]> {
  return events.map((event) => [event.type, event.actor]);
}

describe('createRunModelTurn', () => {
  it('emits request, deltas and response with usage and exact cost from a real adapter', async () => {
    server = await ScriptedModelServer.start({
      turns: [{ text: 'Paris', usage: { input: 1000, output: 200, cacheRead: 400 } }],
    });
    const { events, costs, budgets, runModelTurn } = setup();
    const result = await runModelTurn(request(gpt4o(server.baseUrl('openai'))));

    // 1000 × $2.50 + 200 × $10 + 400 × $1.25 per 1M tokens = $0.0025 + $0.002 + $0.0005.
    expect(result.costPico).toBe(5_000_000_000n);
    expect(result.unpriced).toBe(false);
    expect(result.response.message.parts).toEqual([{ type: 'text', text: 'Paris' }]);
    expect(summary(events)).toEqual([
      ['model.request', ACTOR],
      ['model.delta', ACTOR],
      ['model.response', ACTOR],
    ]);
    expect(events[0]).toMatchObject({
      type: 'model.request',
      requestId: 'request_1',
      turn: 1,
      model: { provider: 'openai', config: 'openai', key: 'gpt_4o', apiName: 'gpt-4o' },
      system: 'You research.',
      messageCount: 1,
      tools: [],
      reasoning: null,
    });
    expect(events[0]).not.toHaveProperty('messages');
    expect(events[1]).toMatchObject({ type: 'model.delta', requestId: 'request_1', text: 'Paris' });
    expect(events[2]).toMatchObject({
      type: 'model.response',
      requestId: 'request_1',
      usage: { input: 1000, output: 200, cacheRead: 400, cacheWrite: 0, reasoning: 0 },
      costPico: '5000000000',
      unpriced: false,
      stopReason: 'end',
    });
    expect(costs.task('analyze')).toMatchObject({ turns: 1, pico: 5_000_000_000n });
    expect(costs.model('models.openai.gpt_4o').turns).toBe(1);
    expect(budgets.spent('analyze')).toEqual({ tokens: 1600, pico: 5_000_000_000n });
    expect(server.requests[0]?.actor).toBe(ACTOR);
  });

  it('journals and pays for a refused reply, then fails the turn naming the stop reason', async () => {
    server = await ScriptedModelServer.start({
      turns: [{ stopReason: 'refusal', text: "I can't help with that.", usage: { input: 100 } }],
    });
    const { events, costs, runModelTurn } = setup();
    const failure = await runModelTurn(request(gpt4o(server.baseUrl('openai')))).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ModelDeclinedError);
    expect((failure as Error).message).toBe(
      `the model refused (stop reason "refusal"): I can't help with that.`,
    );
    expect(events.at(-1)).toMatchObject({
      type: 'model.response',
      stopReason: 'refusal',
      stopDetail: "I can't help with that.",
      message: { role: 'assistant', parts: [{ type: 'text', text: "I can't help with that." }] },
    });
    expect(costs.run().turns).toBe(1);
  });

  it("sends system and tools only when they differ from the same actor's previous request", async () => {
    const answer = {
      message: { role: 'assistant' as const, parts: [] },
      usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
      stopReason: 'end' as const,
      warnings: [],
    };
    const { events, runModelTurn } = setup({
      clients: (resolved) => ({
        model: resolved,
        generate: () => Promise.resolve({ ...answer, model: 'gpt-4o' }),
      }),
    });
    const model = gpt4o('http://127.0.0.1:1');
    const lookup = { name: 'lookup', description: 'Looks up.', parameters: { type: 'object' } };
    const readResult = {
      name: 'read_result',
      description: 'Reads.',
      parameters: { type: 'object' },
    };
    const base = request(model);
    await runModelTurn({ ...base, tools: [lookup] });
    // A new array of the same definitions is no change.
    await runModelTurn({ ...base, tools: [lookup] });
    await runModelTurn({ ...base, tools: [lookup, readResult] });
    await runModelTurn({ ...base, system: 'You research harder.', tools: [lookup, readResult] });
    await runModelTurn({ ...base, actor: 'agent:analyze/writer', tools: [lookup] });
    const requests = events.filter((event) => event.type === 'model.request');
    expect(
      requests.map((event) => [
        event.actor,
        event.system ?? '(unchanged)',
        event.tools?.map((tool) => tool.name).join(',') ?? '(unchanged)',
      ]),
    ).toEqual([
      [ACTOR, 'You research.', 'lookup'],
      [ACTOR, '(unchanged)', '(unchanged)'],
      [ACTOR, '(unchanged)', 'lookup,read_result'],
      [ACTOR, 'You research harder.', '(unchanged)'],
      ['agent:analyze/writer', 'You research.', 'lookup'],
    ]);
    expect(requests.map((event) => 'system' in event)).toEqual([true, false, false, true, true]);
  });

  it('forgets a released actor: its next request is turn 1 and carries its whole prompt, unless its turns are kept', async () => {
    const { events, runModelTurn } = setup({
      clients: (resolved) => ({
        model: resolved,
        generate: () =>
          Promise.resolve({
            message: { role: 'assistant' as const, parts: [{ type: 'text' as const, text: 'ok' }] },
            usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
            stopReason: 'end' as const,
            warnings: [],
            model: 'gpt-4o',
          }),
      }),
    });
    const base = request(gpt4o('http://127.0.0.1:1'));
    const item = { ...base, actor: 'commander:analyze[0]' };
    await runModelTurn(item);
    await runModelTurn(item);
    runModelTurn.release(['commander:analyze[0]'], { keepTurns: true });
    await runModelTurn(item);
    runModelTurn.release(['commander:analyze[0]'], { keepTurns: false });
    await runModelTurn(item);
    const requests = events.filter((event) => event.type === 'model.request');
    expect(requests.map((event) => [event.turn, event.system ?? '(unchanged)'])).toEqual([
      [1, 'You research.'],
      [2, '(unchanged)'],
      [3, 'You research.'],
      [1, 'You research.'],
    ]);
  });

  it('numbers turns per actor and marks a model without prices as unpriced', async () => {
    server = await ScriptedModelServer.start({ turns: [{ text: 'one' }, { text: 'two' }] });
    const { events, runModelTurn } = setup();
    const model = { ...gpt4o(server.baseUrl('openai')), pricing: undefined };
    await runModelTurn(request(model));
    const second = await runModelTurn(request(model));
    expect(second).toMatchObject({ costPico: 0n, unpriced: true });
    const requests = events.filter((event) => event.type === 'model.request');
    expect(requests.map((event) => [event.requestId, event.turn])).toEqual([
      ['request_1', 1],
      ['request_2', 2],
    ]);
  });

  it('holds the request at the step gate until it is released', async () => {
    server = await ScriptedModelServer.start({ turns: [{ text: 'Paris' }] });
    const gate = new DebugGate({ startPaused: true });
    const { events, runModelTurn } = setup({ gate });
    const pending = runModelTurn(request(gpt4o(server.baseUrl('openai'))));
    await new Promise((resolve) => setImmediate(resolve));

    expect(gate.held()).toEqual([
      {
        kind: 'model',
        actor: ACTOR,
        detail: 'models.openai.gpt_4o (gpt-4o), 1 message, last user: Find the capital of France',
        system: 'You research.',
      },
    ]);
    expect(events).toEqual([]);
    expect(server.requests).toEqual([]);

    gate.continue();
    await pending;
    expect(server.requests).toHaveLength(1);
    expect(events.map((event) => event.type)).toEqual([
      'model.request',
      'model.delta',
      'model.response',
    ]);
  });

  it('sends nothing once the task budget is reached and reports the breach once', async () => {
    server = await ScriptedModelServer.start({
      turns: [{ text: 'Paris', usage: { input: 900, output: 200 } }],
    });
    const { events, runModelTurn } = setup({ taskLimits: { tokens: 1000 } });
    const model = gpt4o(server.baseUrl('openai'));

    // The first turn crosses the limit: it is recorded, then the caller fails.
    const first = runModelTurn(request(model));
    await expect(first).rejects.toBeInstanceOf(BudgetExceededError);
    await expect(first).rejects.toThrow(
      'budget exceeded: task "analyze" used 1,100 of 1,000 tokens',
    );
    const second = runModelTurn(request(model));
    await expect(second).rejects.toThrow(
      'budget exceeded: task "analyze" used 1,100 of 1,000 tokens',
    );

    expect(server.requests).toHaveLength(1);
    expect(summary(events).map(([type]) => type)).toEqual([
      'model.request',
      'model.delta',
      'model.response',
      'budget.exceeded',
    ]);
    expect(events[3]).toMatchObject({
      type: 'budget.exceeded',
      actor: ACTOR,
      scope: 'task',
      subject: 'analyze',
      metric: 'tokens',
      used: 1100,
      limit: 1000,
    });
  });

  it('refuses a request before sending when the budget is already spent', async () => {
    server = await ScriptedModelServer.start({ turns: [] });
    const { events, budgets, runModelTurn } = setup({ taskLimits: { tokens: 10 } });
    // Spent by another actor of the task, whose own turn already reported nothing.
    budgets.record(
      'analyze',
      { input: 10, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
      0n,
    );

    await expect(runModelTurn(request(gpt4o(server.baseUrl('openai'))))).rejects.toThrow(
      'budget exceeded: task "analyze" used 10 of 10 tokens',
    );
    expect(server.requests).toEqual([]);
    expect(summary(events)).toEqual([['budget.exceeded', ACTOR]]);
  });

  it('emits budget warnings at 80% and goes on', async () => {
    server = await ScriptedModelServer.start({
      turns: [{ text: 'Paris', usage: { input: 700, output: 100 } }],
    });
    const { events, runModelTurn } = setup({ taskLimits: { tokens: 1000 } });
    await runModelTurn(request(gpt4o(server.baseUrl('openai'))));
    expect(events.at(-1)).toMatchObject({
      type: 'budget.warning',
      scope: 'task',
      subject: 'analyze',
      metric: 'tokens',
      used: 800,
      limit: 1000,
    });
  });

  it('reports retries of a shared client as events of the calling actor', async () => {
    server = await ScriptedModelServer.start({
      turns: [
        { match: { actor: 'agent:a/one' }, error: { status: 503, message: 'busy' } },
        { match: { actor: 'agent:a/one' }, text: 'first' },
        { match: { actor: 'agent:a/two' }, error: { status: 429, message: 'slow down' } },
        { match: { actor: 'agent:a/two' }, text: 'second' },
      ],
    });
    let created = 0;
    const clients: ModelClientFactory = (model, hooks) => {
      created += 1;
      return instantRetryClients(model, hooks);
    };
    const { events, runModelTurn } = setup({ clients });
    const model = gpt4o(server.baseUrl('openai'));
    await runModelTurn({ ...request(model), actor: 'agent:a/one' });
    await runModelTurn({ ...request(model), actor: 'agent:a/two' });

    expect(created).toBe(1);
    const retries = events.filter((event) => event.type === 'model.retry');
    expect(
      retries.map((event) => [
        event.actor,
        event.requestId,
        event.attempt,
        event.waitMs,
        event.reason,
        event.status,
      ]),
    ).toEqual([
      ['agent:a/one', 'request_1', 1, 0, 'status', 503],
      ['agent:a/two', 'request_2', 1, 0, 'status', 429],
    ]);
    server.assertDone();
  });

  it('names the right actor and request for retries of concurrent requests on one client', async () => {
    server = await ScriptedModelServer.start({
      turns: [
        { match: { actor: 'agent:a/one' }, error: { status: 503, message: 'busy' } },
        { match: { actor: 'agent:a/two' }, error: { status: 429, message: 'slow down' } },
        { match: { actor: 'agent:a/one' }, text: 'first' },
        { match: { actor: 'agent:a/two' }, text: 'second' },
      ],
    });
    const { events, runModelTurn } = setup();
    const model = gpt4o(server.baseUrl('openai'));
    await Promise.all([
      runModelTurn({ ...request(model), actor: 'agent:a/one' }),
      runModelTurn({ ...request(model), actor: 'agent:a/two' }),
    ]);
    const requests = new Map(
      events.flatMap((event) =>
        event.type === 'model.request' ? [[event.actor, event.requestId] as const] : [],
      ),
    );
    const retries = events
      .flatMap((event) =>
        event.type === 'model.retry' ? [[event.actor, event.requestId, event.status]] : [],
      )
      .sort();
    expect(retries).toEqual([
      ['agent:a/one', requests.get('agent:a/one'), 503],
      ['agent:a/two', requests.get('agent:a/two'), 429],
    ]);
    expect([...requests.values()].sort()).toEqual(['request_1', 'request_2']);
    server.assertDone();
  });

  it('lets a provider error through to the caller', async () => {
    server = await ScriptedModelServer.start({
      turns: [{ error: { status: 401, message: 'bad key' } }],
    });
    const { events, runModelTurn } = setup();
    await expect(runModelTurn(request(gpt4o(server.baseUrl('openai'))))).rejects.toMatchObject({
      status: 401,
      retryable: false,
    });
    expect(events.map((event) => event.type)).toEqual(['model.request']);
  });

  it('reports adapter warnings as warning events of the actor', async () => {
    const clients: ModelClientFactory = (model) => ({
      model,
      generate: () =>
        Promise.resolve({
          message: { role: 'assistant', parts: [{ type: 'text', text: 'ok' }] },
          stopReason: 'end',
          usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
          model: 'gpt-4o',
          warnings: ['ignored an unknown output item of type "web_search_call"'],
        }),
    });
    const { events, runModelTurn } = setup({ clients });
    await runModelTurn(request(gpt4o('http://127.0.0.1:9/v1')));
    expect(events.map((event) => event.type)).toEqual([
      'model.request',
      'warning',
      'model.response',
    ]);
    expect(events[1]).toMatchObject({
      actor: ACTOR,
      code: 'model.adapter',
      message: 'ignored an unknown output item of type "web_search_call"',
    });
  });

  it('sends nothing for an actor whose signal has already aborted', async () => {
    server = await ScriptedModelServer.start({ turns: [] });
    const { events, runModelTurn } = setup();
    const controller = new AbortController();
    controller.abort();
    const attempt = runModelTurn({
      ...request(gpt4o(server.baseUrl('openai'))),
      signal: controller.signal,
    });
    await expect(attempt).rejects.toMatchObject({ name: 'AbortError' });
    expect(events).toEqual([]);
    expect(server.requests).toEqual([]);
  });
});
