import { describe, expect, it } from 'vitest';
import { isAbortError } from '../../src/base/abort.ts';
import { QuestionStateError, QuestionStore } from '../../src/runtime/question-store.ts';
import { ManualTimers } from './manual-timers.ts';

function storeWithQuestions(timers = new ManualTimers()): QuestionStore {
  const store = new QuestionStore({ timers });
  store.ask('analyze', { question: 'Why Paris?', iteration: 2, askedBy: 'summary' });
  store.ask('analyze', { question: 'And Rome?', iteration: null, askedBy: 'report[1]' });
  return store;
}

describe('QuestionStore', () => {
  it('numbers questions per target task', () => {
    const store = new QuestionStore();
    expect(store.ask('a', { question: 'q0', iteration: null, askedBy: 'x' })).toBe(0);
    expect(store.ask('a', { question: 'q1', iteration: 3, askedBy: 'x' })).toBe(1);
    expect(store.ask('b', { question: 'q0', iteration: null, askedBy: 'x' })).toBe(0);
  });

  it('lists every question to a task in the list_commander_questions shape', () => {
    const store = storeWithQuestions();
    store.answer('analyze', 0, 'It is the capital.');
    expect(store.list('analyze')).toEqual({
      status: 'ok',
      task: 'analyze',
      questions: [
        { index: 0, question: 'Why Paris?', iteration: 2, asked_by: 'summary', answered: true },
        {
          index: 1,
          question: 'And Rome?',
          iteration: null,
          asked_by: 'report[1]',
          answered: false,
        },
      ],
    });
    expect(store.list('other')).toEqual({ status: 'ok', task: 'other', questions: [] });
  });

  it('returns an answer that is already there at once', async () => {
    const store = storeWithQuestions();
    store.answer('analyze', 0, 'It is the capital.');
    expect(await store.getAnswer('analyze', 0)).toEqual({
      status: 'ok',
      question: 'Why Paris?',
      answer: 'It is the capital.',
    });
  });

  it('waits for an answer still being produced', async () => {
    const timers = new ManualTimers();
    const store = storeWithQuestions(timers);
    const pending = store.getAnswer('analyze', 1);
    timers.advance(119_999);
    store.answer('analyze', 1, 'Rome is older.');
    expect(await pending).toEqual({
      status: 'ok',
      question: 'And Rome?',
      answer: 'Rome is older.',
    });
    expect(timers.count).toBe(0);
  });

  it('reports pending after the default 120 s wait', async () => {
    const timers = new ManualTimers();
    const store = storeWithQuestions(timers);
    const pending = store.getAnswer('analyze', 1);
    timers.advance(119_999);
    let settled = false;
    void pending.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    timers.advance(1);
    expect(await pending).toEqual({ status: 'pending' });
  });

  it('honours a shorter wait', async () => {
    const timers = new ManualTimers();
    const store = storeWithQuestions(timers);
    const pending = store.getAnswer('analyze', 1, { waitMs: 10 });
    timers.advance(10);
    expect(await pending).toEqual({ status: 'pending' });
  });

  it('rejects with an AbortError when the wait is aborted, and clears its timer', async () => {
    const timers = new ManualTimers();
    const store = storeWithQuestions(timers);
    const controller = new AbortController();
    const pending = store.getAnswer('analyze', 1, { signal: controller.signal });
    controller.abort();
    const error = await pending.catch((caught: unknown) => caught);
    expect(isAbortError(error)).toBe(true);
    expect(timers.count).toBe(0);
    await expect(store.getAnswer('analyze', 1, { signal: controller.signal })).rejects.toSatisfy(
      isAbortError,
    );
  });

  it('names the number of questions when the index is out of range', async () => {
    const store = storeWithQuestions();
    expect(await store.getAnswer('analyze', 2)).toEqual({
      status: 'error',
      error:
        'question 2 does not exist: task "analyze" has 2 questions (indexes 0-1); see list_commander_questions',
    });
    store.ask('single', { question: 'q', iteration: null, askedBy: 'x' });
    expect(await store.getAnswer('single', -1)).toEqual({
      status: 'error',
      error:
        'question -1 does not exist: task "single" has 1 question (index 0); see list_commander_questions',
    });
    expect(await store.getAnswer('nobody', 0)).toEqual({
      status: 'error',
      error: 'question 0 does not exist: task "nobody" has 0 questions; ask one with ask_commander',
    });
  });

  it('reports a question whose fork failed, also to a waiting caller', async () => {
    const timers = new ManualTimers();
    const store = storeWithQuestions(timers);
    const pending = store.getAnswer('analyze', 1);
    store.fail('analyze', 1, 'provider error');
    expect(await pending).toEqual({
      status: 'error',
      error: 'question 1 was not answered: provider error',
    });
    expect(store.get('analyze', 1)).toEqual({
      index: 1,
      question: 'And Rome?',
      iteration: null,
      asked_by: 'report[1]',
      answered: false,
      error: 'provider error',
    });
  });

  it('refuses to answer a question twice or one that does not exist', () => {
    const store = storeWithQuestions();
    store.answer('analyze', 0, 'yes');
    expect(() => store.answer('analyze', 0, 'again')).toThrow(QuestionStateError);
    expect(() => store.answer('analyze', 5, 'x')).toThrow('task "analyze" has no question 5');
  });
});
