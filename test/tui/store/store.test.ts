import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  applyEvents,
  createTuiStore,
  initialState,
  treeRows,
} from '../../../src/tui/store/index.ts';
import { runTotals } from '../../../src/journal/run-totals.ts';
import { headerFacts } from '../../../src/tui/components/Header.tsx';
import { EventBus } from '../../../src/runtime/event-bus.ts';
import type { MissionEvent } from '../../../src/base/events.ts';
import { fixtureEvents, testBus } from '../fixture.ts';

function stateOf(events = fixtureEvents()) {
  return applyEvents(initialState(), events);
}

describe('applyEvents', () => {
  it('builds the actor tree mission → tasks → commanders → agents and the cursor', () => {
    const state = stateOf();
    const rows = treeRows(state.children, new Set());
    expect(rows.slice(0, 8).map((row) => `${'.'.repeat(row.depth)}${row.id}`)).toEqual([
      'mission:research',
      '.task:fetch',
      '..commander:fetch',
      '...agent:fetch/researcher',
      '.task:analyze',
      '..cursor:analyze',
      '..commander:analyze[0]',
      '..commander:analyze[1]',
    ]);
    expect(rows).toHaveLength(26);
  });

  it('counts iteration progress as done/total with successes and final failures', () => {
    const task = stateOf().actors.get('task:analyze');
    expect(task?.iteration).toEqual({ total: 20, succeeded: 6, failed: 1, running: 13 });
    expect(task?.status).toBe('running');
  });

  it('tracks status and activity of actors', () => {
    const bus = testBus();
    const events: Parameters<typeof applyEvents>[1][number][] = [];
    bus.subscribe((event) => events.push(event));
    bus.emit({
      type: 'task.started',
      actor: 'task:t',
      task: 't',
      activatedBy: null,
      iterated: false,
    });
    bus.emit({
      type: 'tool.called',
      actor: 'commander:t',
      callId: 'x',
      tool: 'call_agent',
      arguments: '{"name":"researcher","task":"go"}',
    });
    bus.emit({
      type: 'tool.called',
      actor: 'agent:t/researcher',
      callId: 'y',
      tool: 'builtins_http_get',
      arguments: '{}',
    });
    const state = applyEvents(initialState(), events);
    expect(state.actors.get('commander:t')?.activity).toBe('waiting for researcher');
    expect(state.actors.get('agent:t/researcher')?.activity).toBe('calling builtins_http_get');
    expect(state.actors.get('task:fetch')).toBeUndefined();
  });

  it('finishes a task with everything under it', () => {
    const state = stateOf();
    expect(state.actors.get('task:fetch')?.status).toBe('succeeded');
    expect(state.actors.get('agent:fetch/researcher')?.status).toBe('succeeded');
    expect(state.actors.get('commander:analyze[6]')?.status).toBe('failed');
    expect(state.actors.get('commander:analyze[7]')?.status).toBe('running');
  });

  it('counts the tasks that started and those skipped, as the line log does', () => {
    const bus = testBus();
    const events: Parameters<typeof applyEvents>[1][number][] = [];
    bus.subscribe((event) => events.push(event));
    bus.emit({
      type: 'task.started',
      actor: 'task:a',
      task: 'a',
      activatedBy: null,
      iterated: false,
    });
    bus.emit({
      type: 'task.skipped',
      actor: 'task:b',
      task: 'b',
      reason: 'upstream_failed',
      cause: 'a',
    });
    expect(applyEvents(initialState(), events).header.taskCount).toBe(2);
  });

  it('rolls tokens and cost up the tree', () => {
    const state = stateOf();
    expect(state.actors.get('agent:fetch/researcher')?.tokens).toBe(340);
    expect(state.actors.get('commander:fetch')?.tokens).toBe(2040);
    expect(state.actors.get('task:fetch')?.tokens).toBe(2040);
    expect(state.actors.get('task:fetch')?.costPico).toBe(1_200_000_000n);
    expect(state.actors.get('task:fetch')?.unpriced).toBe(false);
    expect(state.actors.get('task:analyze')?.unpriced).toBe(true);
    expect(state.actors.get('mission:research')?.tokens).toBe(4240);
  });

  it('aggregates costs per task, actor and model, marking unpriced and local models', () => {
    const { costs, header } = stateOf();
    expect(costs.byModel.get('main.fast')).toEqual({
      key: 'main.fast',
      requests: 1,
      input: 1000,
      cacheRead: 500,
      cacheWrite: 0,
      output: 200,
      reasoning: 0,
      reasoningEstimated: false,
      costPico: 1_200_000_000n,
      unpriced: false,
      local: false,
    });
    expect(costs.byModel.get('local.llama')).toMatchObject({
      requests: 1,
      costPico: 0n,
      local: true,
      unpriced: false,
    });
    expect(costs.byModel.get('custom.mystery')).toMatchObject({
      requests: 20,
      input: 2000,
      unpriced: true,
    });
    expect([...costs.byTask.keys()]).toEqual(['fetch', 'analyze']);
    expect(costs.byTask.get('fetch')).toMatchObject({ requests: 2, input: 1300, output: 240 });
    expect(costs.total).toMatchObject({ requests: 22, input: 3300, output: 440, unpriced: true });
    expect(header).toMatchObject({
      tokens: 4240,
      costPico: 1_200_000_000n,
      unpriced: true,
      mission: 'research',
      runId: 'run-1',
    });
  });

  it('keeps the last system prompt seen when a later model.request leaves it out (unchanged)', () => {
    const bus = testBus();
    const events: Parameters<typeof applyEvents>[1][number][] = [];
    bus.subscribe((event) => events.push(event));
    const model = { provider: 'openai' as const, config: 'main', key: 'gpt_4o', apiName: 'gpt-4o' };
    const request = {
      type: 'model.request' as const,
      actor: 'commander:t',
      model,
      reasoning: null,
    };
    bus.emit({
      ...request,
      requestId: 'r1',
      turn: 1,
      system: 'First prompt.',
      messageCount: 1,
      tools: [],
    });
    bus.emit({ ...request, requestId: 'r2', turn: 2, messageCount: 3 });
    expect(applyEvents(initialState(), events).details.get('commander:t')?.system).toBe(
      'First prompt.',
    );
    bus.emit({ ...request, requestId: 'r3', turn: 3, system: 'Second prompt.', messageCount: 5 });
    expect(applyEvents(initialState(), events).details.get('commander:t')?.system).toBe(
      'Second prompt.',
    );
  });

  it('keeps the detail of an actor: plan, conversation, tool calls, output', () => {
    const detail = stateOf().details.get('commander:fetch');
    expect(detail?.plan.map((subtask) => subtask.title)).toEqual([
      'Download the page',
      'Summarise it',
    ]);
    expect(detail?.system).toBe('You are commander:fetch. Follow the objective.');
    expect(detail?.messages).toHaveLength(1);
    expect(detail?.streaming).toBe('');
    expect(detail?.toolCalls).toEqual([
      {
        callId: 'c1',
        tool: 'call_agent',
        arguments: '{"name":"researcher","task":"download"}',
        result: 'sunny',
        isError: false,
        durationMs: 80,
        forkSeq: 14,
      },
    ]);
    expect(detail?.outputs).toEqual([{ forecast: 'sunny' }]);
  });

  it('keeps streamed text until the response arrives', () => {
    const events = fixtureEvents();
    const upToDelta = events.slice(
      0,
      events.findIndex((event) => event.type === 'model.delta') + 1,
    );
    expect(stateOf(upToDelta).details.get('commander:fetch')?.streaming).toBe('Asking the ');
  });

  it('logs every event but deltas, and records outputs per task and item', () => {
    const state = stateOf();
    expect(state.log.length).toBe(fixtureEvents().length - 1);
    expect(state.outputs.get('fetch')).toMatchObject({
      status: 'succeeded',
      output: { forecast: 'sunny' },
    });
    expect(state.outputs.get('analyze')?.items.get(2)).toEqual({
      index: 2,
      itemId: 'city-2',
      status: 'succeeded',
      output: { temperature: 22 },
      error: null,
    });
    expect(state.outputs.get('analyze')?.items.get(6)).toMatchObject({
      status: 'failed',
      error: 'no data for city-6',
    });
  });

  it('shares every subtree a batch did not touch', () => {
    const events = fixtureEvents();
    const before = stateOf(events);
    const bus = testBus();
    const next: typeof events = [];
    bus.subscribe((event) => next.push(event));
    bus.emit({
      type: 'tool.called',
      actor: 'commander:analyze[9]',
      callId: 'z',
      tool: 'query_task_output',
      arguments: '{}',
    });
    const after = applyEvents(before, next);
    expect(after.actors).not.toBe(before.actors);
    expect(after.actors.get('commander:analyze[9]')?.activity).toBe('calling query_task_output');
    expect(before.actors.get('commander:analyze[9]')?.activity).toBe('');
    expect(after.actors.get('task:fetch')).toBe(before.actors.get('task:fetch'));
    expect(after.children).toBe(before.children);
    expect(after.costs).toBe(before.costs);
    expect(after.outputs).toBe(before.outputs);
    expect(after.details.get('commander:fetch')).toBe(before.details.get('commander:fetch'));
    expect(before.log.length).toBe(events.length - 1);
    expect(after.log.length).toBe(events.length);
  });

  it('tracks held gate points from gate events', () => {
    const bus = testBus();
    const events: ReturnType<typeof fixtureEvents> = [];
    bus.subscribe((event) => events.push(event));
    const point = {
      kind: 'tool' as const,
      actor: 'agent:t/a',
      tool: 'builtins_http_get',
      detail: '{"url":"x"}',
    };
    bus.emit({
      type: 'gate.paused',
      actor: point.actor,
      point,
      reason: 'paused',
      breakpoint: null,
    });
    const paused = applyEvents(initialState(), events);
    expect(paused.held).toEqual([point]);
    expect(paused.header.paused).toBe(true);
    expect(paused.actors.get('agent:t/a')?.activity).toBe('held before builtins_http_get');
    bus.emit({ type: 'gate.resumed', actor: point.actor, point, how: 'step' });
    const resumed = applyEvents(initialState(), events);
    expect(resumed.held).toEqual([]);
    expect(resumed.header.paused).toBe(false);
  });
});

describe('a resumed run', () => {
  // The fixture's 65 events (22 requests) were the killed session, 6.4 s long; an hour later
  // the resumed session starts and makes one request.
  const earlier = fixtureEvents();
  const before = runTotals(earlier);
  function resumedSession(): MissionEvent[] {
    const start = Date.parse('2026-01-01T01:00:00.000Z');
    let tick = 0;
    const bus = new EventBus({
      runId: 'run-1',
      lastSeq: earlier.length,
      now: () => new Date(start + 100 * tick++),
    });
    const events: MissionEvent[] = [];
    bus.subscribe((event) => events.push(event));
    bus.emit({ type: 'run.started', actor: 'run', mission: 'research', resumed: true, before });
    bus.emit({
      type: 'model.response',
      actor: 'commander:fetch',
      requestId: 'r9',
      model: { provider: 'openai', config: 'main', key: 'fast', apiName: 'gpt-fast' },
      message: { role: 'assistant', parts: [{ type: 'text', text: 'done' }] },
      usage: { input: 1000, output: 200, cacheRead: 500, cacheWrite: 0, reasoning: 0 },
      costPico: '1200000000',
      unpriced: false,
      stopReason: 'end',
      durationMs: 50,
    });
    return events;
  }

  it('starts from what the earlier sessions spent: header, totals, models, a before-resume row', () => {
    expect([earlier.length, before.requests, before.durationMs]).toEqual([65, 22, 6_400]);
    const { header, costs } = stateOf(resumedSession());
    expect([header.tokens, header.costPico, header.unpriced]).toEqual([
      4240 + 1700,
      2_400_000_000n,
      true,
    ]);
    expect(costs.total).toMatchObject({ requests: 23, input: 4300, output: 640, cacheRead: 1000 });
    expect(costs.byModel.get('main.fast')).toMatchObject({ requests: 2, costPico: 2_400_000_000n });
    expect(costs.byModel.get('local.llama')).toMatchObject({ requests: 1, local: true });
    expect([...costs.byTask].map(([key, row]) => [key, row.requests])).toEqual([
      ['(before resume)', 22],
      ['fetch', 1],
    ]);
    // Elapsed: the killed session's 6.4 s, then this session's 1 s (not the hour between).
    const facts = headerFacts(
      {
        header,
        title: 't',
        now: Date.parse('2026-01-01T01:00:01.000Z'),
        paused: false,
        heldCount: 0,
        replay: null,
        width: 200,
      },
      200,
    );
    expect(facts).toBe(
      't · mission research · run run-1 · ● running · 00:07.4 · 5,940 tok · $0.0024*',
    );
  });

  it('replayed from the whole journal, counts the earlier sessions once', () => {
    const { header, costs } = stateOf([...earlier, ...resumedSession()]);
    expect([header.tokens, header.costPico]).toEqual([4240 + 1700, 2_400_000_000n]);
    expect(costs.total).toMatchObject({ requests: 23 });
    expect([...costs.byTask.keys()]).toEqual(['fetch', 'analyze']);
  });
});

describe('createTuiStore', () => {
  afterEach(() => vi.useRealTimers());

  it('publishes a burst of events as one snapshot and at most 20 per second', () => {
    vi.useFakeTimers();
    const store = createTuiStore();
    let notifications = 0;
    store.subscribe(() => notifications++);
    const events = fixtureEvents();
    for (const event of events) store.dispatch(event);
    expect(notifications).toBe(0);
    vi.advanceTimersByTime(0);
    expect(notifications).toBe(1);
    expect(store.getState().log.length).toBe(events.length - 1);
    // A steady stream: one event every 5 ms for one second.
    for (let step = 0; step < 200; step++) {
      store.dispatch({ ...events[0]!, seq: 1000 + step });
      vi.advanceTimersByTime(5);
    }
    vi.advanceTimersByTime(100);
    expect(notifications).toBeGreaterThanOrEqual(20);
    expect(notifications).toBeLessThanOrEqual(22);
  });

  it('keeps the snapshot identical between notifications', () => {
    const store = createTuiStore();
    const first = store.getState();
    store.dispatch(fixtureEvents()[0]!);
    expect(store.getState()).toBe(first);
    store.flush();
    expect(store.getState()).not.toBe(first);
    expect(store.getState().header.status).toBe('running');
    store.dispose();
  });
});
