import { describe, expect, it } from 'vitest';
import type { MissionEvent } from '../../src/base/events.ts';
import { AnswerScript } from '../../src/runtime/answer-script.ts';
import { EventBus } from '../../src/runtime/event-bus.ts';
import {
  effectiveTimeout,
  HumanDesk,
  type HumanDeskOptions,
} from '../../src/runtime/human-desk.ts';
import { createHumanAskTool } from '../../src/tools/builtins/human-ask.ts';
import { callTool } from '../tools/builtins/call-tool.ts';
import { ManualTimers } from './manual-timers.ts';

const ACTOR = 'agent:triage/reviewer';

/** A desk on a fresh bus, with every event it emits (seq, time and run id left out). */
function deskWith(options: Omit<HumanDeskOptions, 'bus'>) {
  const bus = new EventBus({ runId: 'run-1' });
  const events: Array<Record<string, unknown>> = [];
  bus.subscribe((event: MissionEvent) => {
    const { seq: _seq, time: _time, runId: _runId, ...rest } = event;
    events.push(rest);
  });
  const desk = new HumanDesk({ ...options, bus });
  const tool = createHumanAskTool(desk.askerFor(ACTOR));
  return { desk, events, tool };
}

/** The `durationMs` of a `human.answered` varies; everything else is exact. */
function withoutDuration(events: Array<Record<string, unknown>>): Array<Record<string, unknown>> {
  return events.map(({ durationMs: _durationMs, ...rest }) => rest);
}

describe('HumanDesk', () => {
  it('answers "[no human available]" at once when nobody can answer, and journals both ends', async () => {
    const { events, tool } = deskWith({ available: false });
    const outcome = await callTool(tool, { question: 'Ship it?' }, { callId: 'c1' });
    expect(outcome).toEqual({ content: '[no human available]', isError: false });
    expect(withoutDuration(events)).toEqual([
      {
        type: 'human.asked',
        actor: ACTOR,
        callId: 'c1',
        question: 'Ship it?',
        choices: [],
        multiSelect: false,
        shortSummary: null,
        additionalContext: null,
        timeoutSeconds: null,
      },
      {
        type: 'human.answered',
        actor: ACTOR,
        callId: 'c1',
        answer: '[no human available]',
        how: 'unavailable',
      },
    ]);
  });

  it('waits for the person, who may name a choice by its number; other actors are not held', async () => {
    const { desk, events, tool } = deskWith({ available: true });
    const pending = callTool(
      tool,
      { question: 'Region?', choices: ['eu', 'us'] },
      { callId: 'c1' },
    );
    expect(desk.waiting().map((open) => [open.actor, open.callId])).toEqual([[ACTOR, 'c1']]);
    const other = createHumanAskTool(desk.askerFor('agent:triage/other'));
    const second = callTool(other, { question: 'Name?' }, { callId: 'c2' });
    expect(desk.answer(ACTOR, 'c1', '3')).toBe('"3" is not one of the choices: 1) eu, 2) us');
    expect(desk.answer('agent:triage/other', 'c2', 'Ada')).toBeUndefined();
    expect(await second).toEqual({ content: 'Ada', isError: false });
    expect(desk.answer(ACTOR, 'c1', '2')).toBeUndefined();
    expect(await pending).toEqual({ content: 'us', isError: false });
    expect(desk.waiting()).toEqual([]);
    expect(events.filter((event) => event.type === 'human.answered').map((e) => e.how)).toEqual([
      'person',
      'person',
    ]);
  });

  it('gives several choices as a JSON array in the order the question lists them', async () => {
    const { desk, tool } = deskWith({ available: true });
    const pending = callTool(
      tool,
      { question: 'Which?', choices: ['a', 'b', 'c'], multi_select: true },
      { callId: 'c1' },
    );
    expect(desk.answer(ACTOR, 'c1', ['C', '1'])).toBeUndefined();
    expect(await pending).toEqual({ content: '["a","c"]', isError: false });
  });

  it('answers "[no human response within Ns]" after the shorter of the two timeouts', async () => {
    const timers = new ManualTimers();
    const { events, tool } = deskWith({ available: true, timeoutSeconds: 30, timers });
    const pending = callTool(tool, { question: 'Ok?', timeout_seconds: 5 }, { callId: 'c1' });
    expect(events[0]).toMatchObject({ type: 'human.asked', timeoutSeconds: 5 });
    timers.advance(5_000);
    expect(await pending).toEqual({ content: '[no human response within 5s]', isError: false });
    expect(events[1]).toMatchObject({ how: 'timeout', answer: '[no human response within 5s]' });
  });

  it('stops waiting for an answering function when the question times out', async () => {
    const timers = new ManualTimers();
    const signals: AbortSignal[] = [];
    const { events, tool } = deskWith({
      available: false,
      timers,
      answerer: (_question, { signal }) => {
        signals.push(signal);
        return new Promise<string>(() => undefined);
      },
    });
    const pending = callTool(tool, { question: 'Ok?', timeout_seconds: 5 }, { callId: 'c1' });
    expect(signals.map((signal) => signal.aborted)).toEqual([false]);
    timers.advance(5_000);
    expect(await pending).toEqual({ content: '[no human response within 5s]', isError: false });
    expect(signals.map((signal) => signal.aborted)).toEqual([true]);
    expect(events.map((event) => event.type)).toEqual(['human.asked', 'human.answered']);
  });

  it('withdraws the question when the asking actor stops: the call is aborted', async () => {
    const { desk, events, tool } = deskWith({ available: true });
    const controller = new AbortController();
    const pending = callTool(
      tool,
      { question: 'Ok?' },
      { callId: 'c1', signal: controller.signal },
    );
    controller.abort();
    await expect(pending).rejects.toThrow('the question was cancelled');
    expect(desk.waiting()).toEqual([]);
    expect(events[1]).toMatchObject({ how: 'cancelled', answer: '[no human response: cancelled]' });
  });

  it('answers open and later questions with the notice once the person left', async () => {
    const { desk, tool } = deskWith({ available: true });
    const pending = callTool(tool, { question: 'Ok?' }, { callId: 'c1' });
    desk.personLeft();
    expect(await pending).toEqual({ content: '[no human available]', isError: false });
    const later = await callTool(tool, { question: 'Still?' }, { callId: 'c2' });
    expect(later.content).toBe('[no human available]');
  });

  it('takes scripted answers first; one that does not fit is a warning and the person is asked', async () => {
    const script = new AnswerScript([{ answer: 'mars' }, { answer: 'yes' }]);
    const { desk, events, tool } = deskWith({ available: true, script });
    const pending = callTool(
      tool,
      { question: 'Region?', choices: ['eu', 'us'] },
      { callId: 'c1' },
    );
    expect(events[1]).toEqual({
      type: 'warning',
      actor: ACTOR,
      code: 'human.script',
      message:
        'scripted answer 1 does not fit the question: "mars" is not one of the choices: 1) eu, 2) us',
    });
    desk.answer(ACTOR, 'c1', 'eu');
    expect((await pending).content).toBe('eu');
    const next = await callTool(tool, { question: 'Go?' }, { callId: 'c2' });
    expect(next.content).toBe('yes');
    expect(events.at(-1)).toMatchObject({ how: 'script', answer: 'yes' });
  });
});

describe('the builtins_human_ask tool', () => {
  it('refuses a blank question or a blank choice with an error the model can act on', async () => {
    const { tool, events } = deskWith({ available: false });
    expect(await callTool(tool, { question: '  ' })).toEqual({
      content: JSON.stringify({
        status: 'error',
        error: 'question is required: write the question for the person',
      }),
      isError: true,
    });
    const blank = await callTool(tool, { question: 'Pick', choices: ['a', ' '] });
    expect(blank.isError).toBe(true);
    expect(blank.content).toContain('choices[1] is blank: every choice needs words to pick');
    expect(events).toEqual([]);
  });

  it('ignores multi_select without choices (a free-text question)', async () => {
    const { desk, tool } = deskWith({ available: true });
    const pending = callTool(tool, { question: 'Why?', multi_select: true }, { callId: 'c1' });
    expect(desk.waiting()[0]?.question.multiSelect).toBe(false);
    desk.answer(ACTOR, 'c1', ' because ');
    expect((await pending).content).toBe('because');
  });
});

describe('effectiveTimeout', () => {
  it('is the shorter of the run limit and the asked one; null when neither is set', () => {
    expect(effectiveTimeout(undefined, null)).toBeNull();
    expect(effectiveTimeout(60, null)).toBe(60);
    expect(effectiveTimeout(undefined, 5)).toBe(5);
    expect(effectiveTimeout(10, 20)).toBe(10);
  });
});
