/**
 * A run resumed in the middle of a parallel task: a later task can still ask the commander of
 * an item that had succeeded before the crash (kept from the journal as the item is restored),
 * and the fork is sent that item's conversation.
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
  dataset "things" {
    items = [{ name = "ant" }, { name = "bee" }, { name = "cat" }]
  }
  task "each" {
    objective = "Describe \${item.name}"
    iterator {
      dataset = datasets.things
      parallel = true
    }
  }
  task "report" {
    objective = "Report"
    depends_on = [tasks.each]
  }
}
`;

function itemSteps(index: number): ScriptTurn[] {
  return [
    call('set_subtasks', { subtasks: ['Describe'] }),
    call('complete_subtask'),
    call('task_complete', { summary: `described thing ${index}` }),
  ];
}

const REPORT: ScriptTurn[] = [
  call('set_subtasks', { subtasks: ['Ask'] }),
  call('ask_commander', { task_name: 'each', index: 0, question: 'What was thing 0?' }),
  call('complete_subtask'),
  call('task_complete', { summary: 'Asked' }),
];

function respond(request: RespondRequest): ScriptTurn | undefined {
  if (request.actor === 'commander:each[0]#fork') {
    return { text: 'Thing 0 was an ant.', usage: { input: 10, output: 2 } };
  }
  const input = (request.body as { input: Array<{ type?: string }> }).input;
  const calls = input.filter((item) => item.type === 'function_call').length;
  const item = /^commander:each\[(\d)\]$/.exec(request.actor ?? '');
  if (item === null) return request.actor === 'commander:report' ? REPORT[calls] : undefined;
  const index = Number(item[1]);
  const turn = itemSteps(index)[calls];
  // Item 0 succeeds first (the crash below comes right after it), whatever order the
  // parallel items' requests happen to reach the server in.
  return turn !== undefined && index !== 0 && calls === 2 ? { ...turn, delayMs: 100 } : turn;
}

let project: ResumeProject;

beforeAll(async () => {
  project = await startResumeProject({ name: 'resume-items-asked', hcl: PROJECT, respond });
});

afterAll(async () => {
  await project.server.close();
});

describe('asking an item commander after a resume mid-iteration', () => {
  it('answers from the conversation of an item that had succeeded before the crash', async () => {
    const baseline = await project.events({ runId: 'items-asked' });
    expect(baseline.find((event) => event.type === 'run.finished')).toMatchObject({
      outcome: 'succeeded',
    });
    // The crash: right after item 0 succeeded, before the iteration ended.
    const succeeded = baseline.findIndex(
      (event) => event.type === 'iteration.succeeded' && event.index === 0,
    );
    const journal = baseline.slice(0, succeeded + 1);
    const done = journal.flatMap((event) =>
      event.type === 'iteration.succeeded' ? [event.index] : [],
    );
    expect(done).toEqual([0]);
    const before = project.server.requests.length;
    const events = await project.events({ resume: restoreFromJournal('items-asked', journal) });
    expect(events.find((event) => event.type === 'run.finished')).toMatchObject({
      outcome: 'succeeded',
    });

    const answered = events.filter((event) => event.type === 'question.answered');
    expect(answered.map((event) => [event.actor, event.answer])).toEqual([
      ['commander:each[0]', 'Thing 0 was an ant.'],
    ]);
    // The fork was sent item 0's conversation, its objective and its completion.
    const fork = project.server.requests
      .slice(before)
      .filter((r) => r.actor === 'commander:each[0]#fork');
    expect(fork).toHaveLength(1);
    const sent = JSON.stringify(fork[0]?.body);
    expect(sent).toContain('Describe ant');
    expect(sent).toContain('described thing 0');
    expect(sent).not.toContain('Describe bee');
  }, 60_000);
});
