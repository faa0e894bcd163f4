import { describe, expect, it } from 'vitest';
import type { EventInput, MissionEvent, MissionEventType } from '../../src/base/events.ts';
import { createLogState, formatEventLine, observeEvent } from '../../src/cli/plain/index.ts';
import type { EventFormTable } from '../../src/present/event-forms.ts';
import { ACTOR_FORMS } from '../../src/present/event-text-actor.ts';
import { WORK_FORMS } from '../../src/present/event-text-run.ts';
import { EVENT_TEXT, eventLogText, eventText } from '../../src/present/event-text.ts';
import { noPaint } from '../../src/present/paint.ts';
import { EventBus } from '../../src/runtime/event-bus.ts';
import { applyEvents, initialState } from '../../src/tui/store/index.ts';
import { SAMPLES } from './event-samples.ts';

// Type-level: a table without an entry for every event type does not compile.
// @ts-expect-error -- the actor events are missing
const incomplete: EventFormTable<MissionEventType> = { ...WORK_FORMS };
// @ts-expect-error -- the run events are missing
const alsoIncomplete: EventFormTable<MissionEventType> = { ...ACTOR_FORMS };
void incomplete;
void alsoIncomplete;

const CONTEXT = {
  paint: noPaint,
  itemCount: (task: string) => (task === 'analyze' ? 2 : undefined),
  dependencies: (task: string) => (task === 'fetch' ? ['seed'] : []),
  runTotals: () => '4 tasks · 1,497 tokens · $0.0012',
};

function stamped(inputs: readonly EventInput[]): MissionEvent[] {
  let tick = 0;
  const bus = new EventBus({
    runId: 'r1',
    now: () => new Date(Date.UTC(2026, 0, 1) + 100 * tick++),
  });
  const events: MissionEvent[] = [];
  bus.subscribe((event) => events.push(event));
  for (const input of inputs) bus.emit(input);
  return events;
}

/** Every sample, with the starts of the tasks that later fail or are cancelled. */
function runStream(): MissionEvent[] {
  const inputs: EventInput[] = [];
  for (const sample of Object.values(SAMPLES)) {
    if (sample.type === 'dataset.locked' || sample.type === 'task.cancelled') {
      const task = sample.task === 'analyze' ? 'analyze' : 'extra';
      inputs.push({
        type: 'task.started',
        actor: `task:${task}`,
        task,
        activatedBy: null,
        iterated: task === 'analyze',
      });
    }
    inputs.push(sample);
  }
  return stamped(inputs);
}

describe('the event table', () => {
  it('has an entry for every event type and nothing else', () => {
    expect(Object.keys(EVENT_TEXT).sort()).toEqual(Object.keys(SAMPLES).sort());
  });

  it('gives every event type a one-line text', () => {
    for (const event of stamped(Object.values(SAMPLES))) {
      const text = eventText(event, CONTEXT);
      expect(text, event.type).not.toBe('');
      expect(text, event.type).not.toContain('\n');
    }
  });

  it('writes each event type as the table says', () => {
    const texts = Object.fromEntries(
      stamped(Object.values(SAMPLES)).map((event) => [event.type, eventText(event, CONTEXT)]),
    );
    expect(texts).toEqual({
      'run.forked': 'forked from r0 at seq 12 (tool.completed, edited)',
      'run.started': 'started run r1 (mission research)',
      'mission.started': 'started · inputs {"topic":"東京の天気"}',
      'task.started': 'started (depends on seed)',
      'plan.updated': 'plan 1/2 done · now: Read them 📚',
      'model.request': 'request to main.fast · turn 2 · 1 message',
      'model.delta': 'Calling',
      'model.retry': 'retry 1 in 2.0s: HTTP 429 · slow down',
      'model.response': 'model main.fast: 1,460 in, 37 out · $0.0012 · 1.2s',
      'message.appended': 'assistant: → call_agent researcher',
      'context.compacted': 'context compacted: 12 turns → 3 (prompt of 120,400 tokens)',
      'gate.paused': 'breakpoint tool:builtins_http_get: paused before tool builtins_http_get',
      'gate.resumed': 'resumed (step)',
      'breakpoints.changed':
        'breakpoint cost:0.50 set · breakpoints: tool:builtins_http_get, cost:0.50',
      'tool.called': '→ builtins_http_get https://example.com/天気',
      'tool.completed': '✗ builtins_http_get: HTTP 503: unavailable',
      'question.asked': 'question from commander:analyze: Which source?',
      'question.answered': 'answer: The second.',
      'human.asked': 'asks the person: Which region? [eu | us] (several) (waits 30s)',
      'human.answered': 'answered: ["eu","us"]',
      'mcp.progressed': 'mcp "files" progress 3/10: copying',
      'mcp.logged': 'mcp "files" log warning (indexer): disk almost full',
      'signal.raised':
        'looping: web_get called 3 times with the same arguments · https://example.com',
      'budget.warning': 'budget warning (task fetch): 80,000 of 100,000 tokens',
      'budget.exceeded': 'budget exceeded (mission research): $1.5000 of $1.0000',
      'budget.raised': 'budget raised (mission research): $1.0000 → $2.0000 (×2)',
      'output.submitted': 'output submitted: {"sources":2}',
      'route.chosen': 'route deep → analyze',
      'task.succeeded': 'succeeded → route deep: Found 2 sources.',
      'dataset.updated': 'dataset cities set: 2 items',
      'dataset.locked': 'dataset cities locked: 2 items',
      'iteration.started': 'iteration 1/2 started: tokyo',
      'iteration.retrying': 'iteration 1/2 retrying (attempt 2/3): model stopped',
      'iteration.succeeded': 'iteration 1/2 succeeded (attempt 2)',
      'iteration.failed': 'iteration 2/2 failed: no data',
      'task.failed': 'failed: 1 item failed',
      'task.skipped': 'skipped (upstream failed: analyze)',
      'task.cancelled': 'cancelled: the run was cancelled',
      warning: 'warning: custom.mystery has no price',
      'mission.succeeded': 'succeeded · 4 tasks · 1,497 tokens · $0.0012',
      'mission.failed': 'failed: task analyze failed · 4 tasks · 1,497 tokens · $0.0012',
      'mission.cancelled': 'cancelled: cancelled by the user · 4 tasks · 1,497 tokens · $0.0012',
      'run.finished': 'failed · exit 1 · 9.1s · $0.0012',
    });
  });

  it('leaves requests, deltas, appended messages, item starts and good results out of the log', () => {
    const silent = stamped(Object.values(SAMPLES))
      .filter((event) => eventLogText(event, CONTEXT) === undefined)
      .map((event) => event.type);
    expect(silent).toEqual([
      'model.request',
      'model.delta',
      'message.appended',
      'iteration.started',
    ]);
    const [fine] = stamped([
      { ...SAMPLES['tool.completed'], isError: false, result: '{"ok":true}' },
    ]);
    expect(eventText(fine!, CONTEXT)).toBe('← builtins_http_get: {"ok":true}');
    expect(eventLogText(fine!, CONTEXT)).toBeUndefined();
  });
});

describe('the plain log and the TUI', () => {
  it('show the same text for every event the log prints', () => {
    const events = runStream();
    const state = createLogState();
    const logged = new Map<number, string>();
    for (const event of events) {
      observeEvent(state, event);
      const line = formatEventLine(event, state);
      if (line !== undefined) logged.set(event.seq, line);
    }
    const tui = applyEvents(initialState(), events);
    const shown = new Map(
      tui.log.items.slice(0, tui.log.length).map((line) => [line.seq, line.text]),
    );
    expect(logged.size).toBe(events.length - 4);
    for (const event of events) {
      const line = logged.get(event.seq);
      if (line === undefined) continue;
      // The log line is `elapsed actor  text`; the Events tab shows the same text beside them.
      expect(line, event.type).toBe(
        `${line.split(' ')[0]} ${event.actor}  ${shown.get(event.seq)}`,
      );
    }
  });
});
