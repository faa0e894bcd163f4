import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../src/base/redact.ts';
import type { AskedQuestion } from '../../src/runtime/human-desk.ts';
import { QuestionInbox } from '../../src/serve/question-inbox.ts';

const ASKED: AskedQuestion = {
  actor: 'agent:decide/asker',
  callId: 'call-1',
  question: 'Deploy with key sk-live-123?',
  choices: ['eu', 'us'],
  multiSelect: false,
  shortSummary: null,
  additionalContext: null,
  timeoutSeconds: null,
};

function inbox() {
  const questions = new QuestionInbox(() => new Date('2026-11-28T10:00:00Z'));
  const answerer = questions.answererFor({
    runId: 'run-1',
    mission: 'ship',
    redact: () => createRedactor(['sk-live-123']),
  });
  return { questions, answerer };
}

describe('QuestionInbox', () => {
  it('lists a question masked with its run redactor, and settles it with a fitting answer', async () => {
    const { questions, answerer } = inbox();
    const reply = answerer(ASKED, { signal: new AbortController().signal });
    const [listed] = questions.list();
    expect(listed).toEqual({
      id: listed?.id,
      runId: 'run-1',
      mission: 'ship',
      actor: 'agent:decide/asker',
      callId: 'call-1',
      question: 'Deploy with key ••••?',
      choices: ['eu', 'us'],
      multiSelect: false,
      shortSummary: null,
      additionalContext: null,
      timeoutSeconds: null,
      askedAt: '2026-11-28T10:00:00.000Z',
    });
    const id = String(listed?.id);
    expect(questions.answer(id, 'mars')).toEqual({
      problem: '"mars" is not one of the choices: 1) eu, 2) us',
    });
    expect(questions.list()).toHaveLength(1);
    expect(questions.answer(id, '2')).toBe('answered');
    await expect(reply).resolves.toBe('2');
    expect(questions.list()).toEqual([]);
    expect(questions.answer(id, '1')).toBe('unknown');
  });

  it('drops a question whose agent stopped or timed out, and lists only the run asked for', () => {
    const { questions, answerer } = inbox();
    const stopped = new AbortController();
    void answerer(ASKED, { signal: stopped.signal });
    void answerer({ ...ASKED, callId: 'call-2' }, { signal: new AbortController().signal });
    expect(questions.list('run-1')).toHaveLength(2);
    expect(questions.list('run-2')).toEqual([]);
    stopped.abort();
    expect(questions.list().map((question) => question.question)).toEqual([
      'Deploy with key ••••?',
    ]);
  });
});
