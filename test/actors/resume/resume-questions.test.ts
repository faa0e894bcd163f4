/**
 * Questions to a commander across a restart: a question asked after the resume builds on the
 * ones answered before it (the fork is restored), and the question list keeps them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restoreFromJournal } from '../../../src/journal/restore.ts';
import type { RespondRequest, ScriptTurn } from '../../../src/testing/index.ts';
import { modelPreamble } from '../../helpers/model-preamble.ts';
import { call } from '../../helpers/script-turns.ts';
import { startResumeProject, type ResumeProject } from './resume-project.ts';

const PROJECT = `
${modelPreamble()}mission "m" {
  commander {
    model = models.main.gpt_4o_mini
  }
  task "a" {
    objective = "Find things"
  }
  task "b" {
    objective = "Ask about them"
    depends_on = [tasks.a]
  }
}
`;

const STEPS: Record<string, ScriptTurn[]> = {
  'commander:a': [
    call('set_subtasks', { subtasks: ['Find'] }),
    call('complete_subtask'),
    call('task_complete', { summary: 'Found three things' }),
  ],
  'commander:b': [
    call('set_subtasks', { subtasks: ['Ask'] }),
    call('complete_subtask'),
    call('ask_commander', { task_name: 'a', question: 'First question?' }),
    call('ask_commander', { task_name: 'a', question: 'Second question?' }),
    call('list_commander_questions', { task_name: 'a' }),
    call('task_complete', { summary: 'Asked' }),
  ],
};

function respond(request: RespondRequest): ScriptTurn | undefined {
  if (request.actor === 'commander:a#fork') {
    const asked = /(First|Second) question\?$/.exec(request.summary.lastMessage)?.[1];
    return {
      text: `Answer to the ${String(asked).toLowerCase()} one`,
      usage: { input: 10, output: 2 },
    };
  }
  const input = (request.body as { input: Array<{ type?: string }> }).input;
  return STEPS[request.actor ?? '']?.[input.filter((item) => item.type === 'function_call').length];
}

let project: ResumeProject;

beforeAll(async () => {
  project = await startResumeProject({ name: 'resume-questions', hcl: PROJECT, respond });
});

afterAll(async () => {
  await project.server.close();
});

describe('questions to a commander across a restart', () => {
  it('keeps the answered questions: the next one builds on them and the list shows them', async () => {
    const baseline = await project.events({ runId: 'questions' });
    expect(baseline.find((event) => event.type === 'run.finished')).toMatchObject({
      outcome: 'succeeded',
    });
    // The crash: right after the first question was answered.
    const answered = baseline.findIndex((event) => event.type === 'question.answered');
    const journal = baseline.slice(0, answered + 1);
    const before = project.server.requests.length;
    const events = await project.events({ resume: restoreFromJournal('questions', journal) });
    expect(events.find((event) => event.type === 'run.finished')).toMatchObject({
      outcome: 'succeeded',
    });

    const fork = project.server.requests
      .slice(before)
      .find((request) => request.actor === 'commander:a#fork');
    const sent = JSON.stringify(fork?.body);
    expect(sent).toContain('First question?');
    expect(sent).toContain('Answer to the first one');
    expect(sent).toContain('Second question?');
    // Task a was not run again.
    expect(project.server.requests.slice(before).map((request) => request.actor)).not.toContain(
      'commander:a',
    );

    const listed = events.find(
      (event) => event.type === 'tool.completed' && event.tool === 'list_commander_questions',
    );
    expect(JSON.parse((listed as { result: string }).result)).toEqual({
      status: 'ok',
      task: 'a',
      questions: [
        { index: 0, question: 'First question?', iteration: null, asked_by: 'b', answered: true },
        { index: 1, question: 'Second question?', iteration: null, asked_by: 'b', answered: true },
      ],
    });
  });
});
