/**
 * A library run answers the questions its agents ask the person (`builtins.human.ask`) through
 * `runMission`'s `human` option: a function called with each question, or a list of answers.
 * A reply that does not fit the question, or a function that fails, is a warning and the agent
 * gets `[no human available]`, as it does without the option.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  openProject,
  runMission,
  type AskedQuestion,
  type MissionEvent,
  type MissionRunOptions,
} from '../../src/index.ts';
import { ScriptedModelServer } from '../../src/testing/index.ts';
import { capitalProject } from './capital-project.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const COMMANDER = { actor: 'commander:find' };
const AGENT = { actor: 'agent:find/clerk' };
const QUESTION = { question: 'Which region should I search?', choices: ['eu', 'us'] };

/** Runs the mission whose agent asks QUESTION once; returns what the run saw. */
async function runAsking(human: MissionRunOptions['human']) {
  const model = await ScriptedModelServer.start({
    turns: [
      {
        match: COMMANDER,
        toolCalls: [{ name: 'set_subtasks', arguments: { subtasks: ['Look'] } }],
      },
      {
        match: COMMANDER,
        toolCalls: [{ name: 'call_agent', arguments: { name: 'clerk', task: 'Look it up' } }],
      },
      { match: AGENT, toolCalls: [{ name: 'builtins_human_ask', arguments: QUESTION }] },
      { match: AGENT, text: 'Searched.' },
      { match: COMMANDER, toolCalls: [{ name: 'complete_subtask', arguments: {} }] },
      { match: COMMANDER, toolCalls: [{ name: 'task_complete', arguments: { summary: 'Paris' } }] },
    ],
  });
  cleanups.push(() => model.close());
  const dir = await temporaryDirectory('library-human');
  await writeFile(join(dir, 'main.hcl'), capitalProject('builtins.human.ask'));
  const opened = await openProject(dir, {
    vars: { api_key: 'test', base_url: model.baseUrl('openai'), token: 'tok-0123456789' },
    env: {},
  });
  const events: MissionEvent[] = [];
  const run = runMission(opened, {
    inputs: { country: 'France' },
    stateDir: join(dir, 'state'),
    onEvent: (event) => events.push(event),
    ...(human !== undefined ? { human } : {}),
  });
  const result = await run.result;
  model.assertDone();
  expect(result.status).toBe('succeeded');
  const answered = events.flatMap((event) =>
    event.type === 'human.answered' ? [[event.answer, event.how]] : [],
  );
  const warnings = events.flatMap((event) =>
    event.type === 'warning' && event.code === 'human.answerer' ? [event.message] : [],
  );
  return { answered, warnings };
}

describe('runMission with human', () => {
  it('hands each question to the function and gives the agent its reply', async () => {
    const asked: AskedQuestion[] = [];
    const { answered, warnings } = await runAsking(async (question) => {
      asked.push(question);
      return '2';
    });
    expect(asked).toEqual([
      {
        actor: 'agent:find/clerk',
        callId: expect.any(String) as string,
        question: 'Which region should I search?',
        choices: ['eu', 'us'],
        multiSelect: false,
        shortSummary: null,
        additionalContext: null,
        timeoutSeconds: null,
      },
    ]);
    expect(answered).toEqual([['us', 'person']]);
    expect(warnings).toEqual([]);
  });

  it('answers from a list, in order', async () => {
    const { answered } = await runAsking(['EU']);
    expect(answered).toEqual([['eu', 'script']]);
  });

  it.each([
    [
      'a reply that is not one of the choices',
      () => 'mars',
      'the human function replied what does not fit the question: "mars" is not one of the choices: 1) eu, 2) us: the agent gets [no human available]',
    ],
    [
      'a function that fails',
      () => Promise.reject(new Error('the operator is away')),
      'the human function failed: the operator is away: the agent gets [no human available]',
    ],
  ])('warns about %s and answers [no human available]', async (_name, human, warning) => {
    const { answered, warnings } = await runAsking(human);
    expect(answered).toEqual([['[no human available]', 'unavailable']]);
    expect(warnings).toEqual([warning]);
  });

  it('answers [no human available] without the option', async () => {
    const { answered } = await runAsking(undefined);
    expect(answered).toEqual([['[no human available]', 'unavailable']]);
  });
});
