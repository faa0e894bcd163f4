/**
 * Budgets keep counting across a restart: a resumed run starts from what the journal says
 * its tasks had spent, so crashing cannot reset a limit; a limit the person raised stays raised.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunHandle, RunOptions } from '../../../src/actors/contracts.ts';
import { chosenLimit } from '../../../src/runtime/budget-raises.ts';
import { DebugGate } from '../../../src/runtime/gate.ts';
import { startRun } from '../../../src/run/start-run.ts';
import { loadProject } from '../../../src/config/index.ts';
import { restoreFromJournal } from '../../../src/journal/restore.ts';
import type { MissionEvent } from '../../../src/base/events.ts';
import { callsSoFar } from './resume-fixture.ts';
import { ScriptedModelServer } from '../../../src/testing/index.ts';
import { call as step } from '../../helpers/script-turns.ts';
import { temporaryDirectory } from '../../helpers/temp-dir.ts';
import { modelPreamble } from '../../helpers/model-preamble.ts';

function project(tokens: number): string {
  return `
${modelPreamble()}mission "m" {
  commander {
    model = models.main.gpt_4o_mini
  }
  task "t" {
    objective = "Work"
    budget {
      tokens = ${tokens}
    }
  }
}
`;
}

const STEPS = [
  step('set_subtasks', { subtasks: ['Work'] }),
  step('complete_subtask'),
  step('task_complete', { summary: 'Done' }),
];

let server: ScriptedModelServer;
let dir: string;

async function run(
  tokens: number,
  options: Partial<RunOptions>,
  started?: (handle: RunHandle) => void,
): Promise<MissionEvent[]> {
  await writeFile(join(dir, 'main.hcl'), project(tokens));
  const config = await loadProject(dir, {
    vars: { api_key: 'sk-test-budget', base_url: server.baseUrl('openai') },
    env: {},
  });
  const events: MissionEvent[] = [];
  const handle = startRun({
    config,
    mission: 'm',
    inputs: {},
    stateDir: join(dir, '.sortie'),
    ...options,
    subscribers: [(event) => events.push(event), ...(options.subscribers ?? [])],
  });
  started?.(handle);
  await handle.done;
  return events;
}

beforeAll(async () => {
  server = await ScriptedModelServer.start({
    respond: (request) => STEPS[callsSoFar(request.body)],
  });
  dir = await temporaryDirectory('resume-budget');
});

afterAll(async () => {
  await server.close();
});

describe('budgets across a restart', () => {
  it('count the turns spent before the crash: the limit is reached as if nothing had stopped', async () => {
    const baseline = await run(1_000, { runId: 'budget' });
    expect(baseline.find((event) => event.type === 'run.finished')).toMatchObject({
      outcome: 'succeeded',
    });
    // The crash: after the second model response (220 tokens spent).
    const second = baseline.filter((event) => event.type === 'model.response')[1];
    const journal = baseline.slice(0, baseline.indexOf(second!) + 1);
    // Resumed under a 250-token limit, the third turn (330 in all) breaches it.
    const events = await run(250, { resume: restoreFromJournal('budget', journal) });
    expect(events.find((event) => event.type === 'budget.exceeded')).toMatchObject({
      scope: 'task',
      subject: 't',
      metric: 'tokens',
      used: 330,
      limit: 250,
    });
    expect(events.find((event) => event.type === 'task.failed')).toMatchObject({
      task: 't',
      error: 'budget exceeded: task "t" used 330 of 250 tokens',
    });
  });

  it('keep a limit the person raised at the warning: the run and its resumption go past the old one', async () => {
    // As in the TUI: the warning holds every actor at its next point; the person doubles the
    // limit and lets the run go on.
    const gate = new DebugGate();
    let handle: RunHandle | undefined;
    const events = await run(
      250,
      {
        runId: 'raised',
        gate,
        subscribers: [
          (event) => {
            if (event.type !== 'budget.warning') return;
            gate.pause();
            const chosen = chosenLimit(event, 'double');
            if (chosen.ok) expect(handle?.budgets.raise(chosen.request)).toBeUndefined();
            gate.continue();
          },
        ],
      },
      (started) => (handle = started),
    );
    const budgetEvents = events.filter((event) => event.type.startsWith('budget.'));
    expect(budgetEvents).toMatchObject([
      { type: 'budget.warning', metric: 'tokens', used: 220, limit: 250 },
      { type: 'budget.raised', actor: 'task:t', scope: 'task', subject: 't', from: 250, to: 500 },
    ]);
    // Three turns of 110 tokens: 330, past the old limit.
    expect(events.filter((event) => event.type === 'model.response')).toHaveLength(3);
    expect(events.find((event) => event.type === 'run.finished')).toMatchObject({
      outcome: 'succeeded',
    });
    // The crash: right after the raise, before the second reply was handled. Resumed under the
    // same 250-token limit, the run spends 440 tokens: within the raised limit, which warns at
    // its own 80%.
    const raised = events.find((event) => event.type === 'budget.raised');
    const journal = events.slice(0, events.indexOf(raised!) + 1);
    const resumed = await run(250, { resume: restoreFromJournal('raised', journal) });
    expect(resumed.filter((event) => event.type.startsWith('budget.'))).toMatchObject([
      { type: 'budget.warning', scope: 'task', subject: 't', used: 440, limit: 500 },
    ]);
    expect(resumed.find((event) => event.type === 'task.succeeded')).toMatchObject({ task: 't' });
  });
});
