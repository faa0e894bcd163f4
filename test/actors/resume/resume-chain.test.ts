/**
 * Resuming a run whose mission routes to another: cut after any event, the run continues the
 * mission it was in, chains on with the mission inputs its router chose, and never runs a
 * finished task of the first mission again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missionToResume, restoreFromJournal } from '../../../src/journal/restore.ts';
import type { MissionEvent } from '../../../src/base/events.ts';
import { callsSoFar } from './resume-fixture.ts';
import type { RespondRequest, ScriptTurn } from '../../../src/testing/index.ts';
import { modelPreamble } from '../../helpers/model-preamble.ts';
import { call } from '../../helpers/script-turns.ts';
import { startResumeProject, type ResumeProject } from './resume-project.ts';

const PROJECT = `
${modelPreamble()}mission "first" {
  commander {
    model = models.main.gpt_4o_mini
  }
  task "pick" {
    objective = "Pick a topic"
    router {
      route {
        target = missions.second
        condition = "Always"
      }
    }
  }
}
mission "second" {
  commander {
    model = models.main.gpt_4o_mini
  }
  inputs = {
    topic = string("The topic", true)
  }
  task "dig" {
    objective = "Dig into \${inputs.topic}"
  }
}
`;

const STEPS: Record<string, ScriptTurn[]> = {
  'commander:pick': [
    call('set_subtasks', { subtasks: ['Pick'] }),
    call('complete_subtask'),
    call('task_complete', {
      summary: 'Tides',
      route: 'second',
      mission_inputs: { topic: 'tides' },
    }),
  ],
  'commander:dig': [
    call('set_subtasks', { subtasks: ['Dig'] }),
    call('complete_subtask'),
    call('task_complete', { summary: 'Dug' }),
  ],
};

function respond(request: RespondRequest): ScriptTurn | undefined {
  return STEPS[request.actor ?? '']?.[callsSoFar(request.body)];
}

let project: ResumeProject;
let complete: MissionEvent[];

beforeAll(async () => {
  project = await startResumeProject({
    name: 'resume-chain',
    hcl: PROJECT,
    respond,
    mission: 'first',
  });
  const baseline = await project.run({ runId: 'chain' });
  expect(baseline.result.status).toBe('succeeded');
  complete = baseline.events.filter((event) => event.type !== 'model.delta');
});

afterAll(async () => {
  await project.server.close();
});

describe('resuming a chained run cut after any event', () => {
  const cuts = Array.from({ length: 40 }, (_, index) => index);
  it.each(cuts)('cut %i of 40', async (slot) => {
    const first = complete.findIndex((event) => event.type === 'mission.started') + 1;
    const cut = first + Math.floor(((complete.length - 1 - first) * slot) / 39);
    const state = restoreFromJournal('chain', complete.slice(0, cut));
    const resumed = missionToResume(state);
    const before = project.server.requests.length;
    const { result, events } = await project.run({
      mission: resumed?.name ?? 'first',
      inputs: resumed?.inputs ?? {},
      resume: state,
    });
    expect(result.status).toBe('succeeded');
    const missions = events
      .filter((event) => event.type === 'mission.started')
      .map((event) => `${event.mission}:${JSON.stringify(event.inputs)}`);
    expect(missions.at(-1)).toBe('second:{"topic":"tides"}');
    if (
      complete
        .slice(0, cut)
        .some((event) => event.type === 'task.succeeded' && event.task === 'pick')
    ) {
      const actors = project.server.requests.slice(before).map((request) => request.actor);
      expect(actors).not.toContain('commander:pick');
    }
    const dig = result.tasks.find((task) => task.name === 'dig');
    expect(dig).toMatchObject({ mission: 'second', status: 'succeeded', summary: 'Dug' });
  });
});
