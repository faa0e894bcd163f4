import { describe, expect, it } from 'vitest';
import { createLogState, formatEventLine, observeEvent } from '../../../src/cli/plain/index.ts';
import { argumentsText } from '../../../src/present/message-text.ts';
import { EventBus } from '../../../src/runtime/event-bus.ts';
import type { StopReason } from '../../../src/models/model-types.ts';
import type { EventInput, MissionEvent } from '../../../src/base/events.ts';

/** The line of each event, in order, with the state observed up to it. */
function lines(inputs: EventInput[]): Array<string | undefined> {
  const bus = new EventBus({ runId: 'r', now: () => new Date('2026-01-01T00:00:00Z') });
  const state = createLogState();
  const out: Array<string | undefined> = [];
  bus.subscribe((event: MissionEvent) => {
    observeEvent(state, event);
    out.push(formatEventLine(event, state));
  });
  for (const input of inputs) bus.emit(input);
  return out;
}

describe('formatEventLine', () => {
  it('describes routes, budgets and their raises, questions, gates, datasets and skips', () => {
    expect(
      lines([
        {
          type: 'route.chosen',
          actor: 'task:triage',
          task: 'triage',
          via: 'router',
          route: 'deep',
          targets: [
            { kind: 'task', name: 'deep', activated: true },
            { kind: 'mission', name: 'audit', activated: true },
          ],
        },
        {
          type: 'route.chosen',
          actor: 'task:triage',
          task: 'triage',
          via: 'router',
          route: null,
          targets: [],
        },
        {
          type: 'route.chosen',
          actor: 'task:fetch',
          task: 'fetch',
          via: 'send_to',
          route: null,
          targets: [
            { kind: 'task', name: 'a', activated: true },
            { kind: 'task', name: 'b', activated: false, reason: 'already_activated' },
          ],
        },
        {
          type: 'budget.warning',
          actor: 'task:fetch',
          scope: 'task',
          subject: 'fetch',
          metric: 'tokens',
          used: 80000,
          limit: 100000,
        },
        {
          type: 'budget.exceeded',
          actor: 'mission:m',
          scope: 'mission',
          subject: 'm',
          message: 'over',
          metric: 'dollars',
          used: '1500000000000',
          limit: '1000000000000',
        },
        {
          type: 'budget.raised',
          actor: 'task:fetch',
          scope: 'task',
          subject: 'fetch',
          metric: 'tokens',
          from: 100000,
          to: 150000,
          how: 'half',
        },
        {
          type: 'question.asked',
          actor: 'commander:b',
          task: 'a',
          iteration: null,
          questionIndex: 0,
          question: 'Which source?',
          askedBy: 'commander:b',
        },
        {
          type: 'question.answered',
          actor: 'commander:a',
          task: 'a',
          iteration: null,
          questionIndex: 0,
          answer: 'The second.\nDetails follow.',
        },
        {
          type: 'gate.paused',
          actor: 'agent:a/r',
          point: { kind: 'tool', actor: 'agent:a/r', tool: 'builtins_http_get', detail: '{}' },
          reason: 'breakpoint',
          breakpoint: 'tool:builtins_http_get',
        },
        {
          type: 'gate.paused',
          actor: 'commander:a',
          point: { kind: 'model', actor: 'commander:a', detail: 'gpt' },
          reason: 'paused',
          breakpoint: null,
        },
        {
          type: 'gate.paused',
          actor: 'commander:a',
          point: {
            kind: 'route',
            actor: 'commander:a',
            detail: 'deep → task deep (when: the topic needs depth)',
          },
          reason: 'breakpoint',
          breakpoint: 'route',
        },
        {
          type: 'gate.paused',
          actor: 'agent:a/r',
          point: {
            kind: 'error',
            actor: 'agent:a/r',
            tool: 'file_read',
            detail: '{"status":"error","error":"no file notes.md"}',
          },
          reason: 'breakpoint',
          breakpoint: 'error',
        },
        {
          type: 'gate.resumed',
          actor: 'commander:a',
          point: { kind: 'model', actor: 'commander:a', detail: 'gpt' },
          how: 'step',
        },
        {
          type: 'dataset.updated',
          actor: 'commander:a',
          dataset: 'cities',
          count: 1200,
          appended: true,
        },
        { type: 'task.skipped', actor: 'task:c', task: 'c', reason: 'upstream_failed', cause: 'b' },
        {
          type: 'task.started',
          actor: 'task:deep',
          task: 'deep',
          activatedBy: 'triage',
          iterated: false,
        },
        {
          type: 'task.started',
          actor: 'task:early',
          task: 'early',
          activatedBy: null,
          iterated: false,
          restored: true,
        },
        {
          type: 'model.retry',
          actor: 'commander:a',
          requestId: 'q',
          attempt: 1,
          waitMs: 2000,
          reason: 'status',
          status: 429,
          message: 'slow down',
        },
        {
          type: 'message.appended',
          actor: 'commander:a',
          conversation: 'commander:a',
          message: { role: 'user', parts: [] },
        },
      ]),
    ).toEqual([
      '00:00.0 task:triage  route deep → deep, mission audit',
      '00:00.0 task:triage  route none → nothing activated',
      '00:00.0 task:fetch  send_to → a',
      '00:00.0 task:fetch  budget warning (task fetch): 80,000 of 100,000 tokens',
      '00:00.0 mission:m  budget exceeded (mission m): $1.5000 of $1.0000',
      '00:00.0 task:fetch  budget raised (task fetch): 100,000 → 150,000 tokens (+50%)',
      '00:00.0 commander:b  question from commander:b: Which source?',
      '00:00.0 commander:a  answer: The second.',
      '00:00.0 agent:a/r  breakpoint tool:builtins_http_get: paused before tool builtins_http_get',
      '00:00.0 commander:a  paused before model gpt',
      '00:00.0 commander:a  breakpoint route: paused before route deep → task deep (when: the topic needs depth)',
      '00:00.0 agent:a/r  breakpoint error: paused before error of file_read: {"status":"error","error":"no file notes.md"}',
      '00:00.0 commander:a  resumed (step)',
      '00:00.0 commander:a  dataset cities appended to: 1,200 items',
      '00:00.0 task:c  skipped (upstream failed: b)',
      '00:00.0 task:deep  started (activated by triage)',
      '00:00.0 task:early  restored from the journal (succeeded before the restart)',
      '00:00.0 commander:a  retry 1 in 2.0s: HTTP 429 · slow down',
      undefined,
    ]);
  });
});

describe('model response lines', () => {
  const response = (stopReason: StopReason, stopDetail?: string): EventInput => ({
    type: 'model.response',
    actor: 'agent:t/worker',
    requestId: 'request_1',
    model: { provider: 'openai', config: 'openai', key: 'gpt_4o', apiName: 'gpt-4o' },
    message: { role: 'assistant', parts: [] },
    usage: { input: 1200, output: 12, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
    costPico: '3120000000',
    unpriced: false,
    stopReason,
    ...(stopDetail !== undefined ? { stopDetail } : {}),
    durationMs: 1500,
  });

  it('name a declined reply and what the provider said', () => {
    expect(
      lines([
        response('end'),
        response('refusal', "I'm sorry, but I can't help with that."),
        response('blocked'),
      ]),
    ).toEqual([
      '00:00.0 agent:t/worker  model openai.gpt_4o: 1,200 in, 12 out · $0.0031 · 1.5s',
      `00:00.0 agent:t/worker  model openai.gpt_4o: 1,200 in, 12 out · $0.0031 · 1.5s · the model refused (stop reason "refusal"): I'm sorry, but I can't help with that.`,
      '00:00.0 agent:t/worker  model openai.gpt_4o: 1,200 in, 12 out · $0.0031 · 1.5s · the provider blocked the prompt (stop reason "blocked")',
    ]);
  });
});

describe('argumentsText', () => {
  it('shows a lone argument by its value, several as compact JSON, malformed text as is', () => {
    expect(argumentsText('{"url":"https://example.com"}')).toBe('https://example.com');
    expect(argumentsText('{"count":3}')).toBe('3');
    expect(argumentsText('{}')).toBe('');
    expect(argumentsText('{"a":1,"b":"x"}')).toBe('{"a":1,"b":"x"}');
    expect(argumentsText('{not json')).toBe('{not json');
  });
});
