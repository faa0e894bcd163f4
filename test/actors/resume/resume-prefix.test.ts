/**
 * Resume from every point a crash could leave: a complete run's events cut after event k are
 * exactly the journal a crash after event k leaves (the journal is a prefix of the events).
 * Each prefix is resumed through `startRun` against the scripted model server, and checked:
 * the run finishes, no succeeded task or item runs again, every output is there exactly once.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunOptions, RunResult } from '../../../src/actors/contracts.ts';
import { startRun } from '../../../src/run/start-run.ts';
import { loadProject } from '../../../src/config/index.ts';
import type { Config } from '../../../src/config/config-types.ts';
import { restoreFromJournal } from '../../../src/journal/restore.ts';
import { summarizeRun } from '../../../src/journal/summary.ts';
import type { MissionEvent } from '../../../src/base/events.ts';
import { ScriptedModelServer } from '../../../src/testing/index.ts';
import { EXPECTED_OUTPUTS, RESUME_PROJECT, respondToResumable } from './resume-fixture.ts';
import { temporaryDirectory } from '../../helpers/temp-dir.ts';

let server: ScriptedModelServer;
let dir: string;
let config: Config;
let complete: MissionEvent[];

async function run(options: Partial<RunOptions> = {}): Promise<{
  result: RunResult;
  events: MissionEvent[];
}> {
  const events: MissionEvent[] = [];
  const handle = startRun({
    config,
    mission: 'resumable',
    inputs: { topic: 'things' },
    stateDir: join(dir, '.sortie'),
    subscribers: [(event) => events.push(event)],
    ...options,
  });
  return { result: await handle.done, events };
}

beforeAll(async () => {
  server = await ScriptedModelServer.start({ respond: respondToResumable });
  dir = await temporaryDirectory('resume');
  await writeFile(join(dir, 'main.hcl'), RESUME_PROJECT);
  config = await loadProject(dir, {
    vars: { api_key: 'test-key', base_url: server.baseUrl('openai') },
    env: {},
  });
  const baseline = await run({ runId: 'baseline' });
  expect(baseline.result.status).toBe('succeeded');
  complete = baseline.events.filter((event) => event.type !== 'model.delta');
});

afterAll(async () => {
  await server.close();
});

/** Whether a model request's actor works for `task` (forks answer for whoever asks). */
function worksFor(actor: string, task: string): boolean {
  return !actor.includes('#') && new RegExp(`^(commander|agent):${task}(\\[|/|$)`).test(actor);
}

function outputsOf(result: RunResult): Record<string, unknown> {
  const tasks = new Map(result.tasks.map((task) => [task.name, task]));
  return {
    gather: tasks.get('gather')?.output,
    each: tasks.get('each')?.items?.map((item) => item.output),
  };
}

/** The journal up to and including the first event that `pick` accepts. */
function journalUpTo(pick: (event: MissionEvent) => boolean): MissionEvent[] {
  const index = complete.findIndex(pick);
  expect(index).toBeGreaterThan(0);
  return complete.slice(0, index + 1);
}

/** The input items of the first request `actor` sent after `before` requests. */
function firstInputOf(actor: string, before: number): Array<Record<string, unknown>> {
  const request = server.requests.slice(before).find((candidate) => candidate.actor === actor);
  return (request?.body as { input: Array<Record<string, unknown>> }).input;
}

describe('what a resumed actor continues with', () => {
  it('an agent interrupted inside call_agent goes on in its own conversation, keeping its finished tool call', async () => {
    const journal = journalUpTo(
      (event) => event.type === 'tool.completed' && event.actor === 'agent:gather/worker',
    );
    const before = server.requests.length;
    const { result, events } = await run({ resume: restoreFromJournal('baseline', journal) });
    expect(result.status).toBe('succeeded');
    const input = firstInputOf('agent:gather/worker', before);
    // One task message (not a second call), the tool call and its journaled result.
    expect(input.filter((item) => item.role === 'user')).toHaveLength(1);
    expect(input.filter((item) => item.type === 'function_call')).toHaveLength(1);
    expect(input.filter((item) => item.type === 'function_call_output')).toHaveLength(1);
    expect(
      events.filter(
        (event) => event.type === 'tool.called' && event.actor === 'agent:gather/worker',
      ),
    ).toEqual([]);
    // The commander received the agent's answer as the result of its interrupted call_agent.
    const appended = events.find(
      (event) => event.type === 'message.appended' && event.conversation === 'commander:gather',
    );
    expect(JSON.stringify(appended)).toContain('There are 3 things.');
  });

  it('keeps the run scratchpad: a file written before the restart is still there', async () => {
    const scratchpad = join(dir, '.sortie', 'runs', 'baseline', 'scratchpad');
    await writeFile(join(scratchpad, 'notes.txt'), 'counted so far: 2');
    const journal = journalUpTo((event) => event.type === 'task.succeeded');
    const { result } = await run({ resume: restoreFromJournal('baseline', journal) });
    expect(result.status).toBe('succeeded');
    expect(await readFile(join(scratchpad, 'notes.txt'), 'utf8')).toBe('counted so far: 2');
    // The resumed run works in the same run directory (no second run was made).
    expect(await readdir(join(dir, '.sortie', 'runs'))).toEqual(['baseline']);
  });

  it('removes the scratch files of finished items and commanders that the crashed process left', async () => {
    const runDir = join(dir, '.sortie', 'runs', 'baseline');
    for (const folder of ['finished-commanders-Ab12Cd', 'knowledge-Ef34Gh']) {
      await mkdir(join(runDir, folder));
      await writeFile(join(runDir, folder, 'left.jsonl'), '[]');
    }
    const journal = journalUpTo((event) => event.type === 'task.succeeded');
    const { result } = await run({ resume: restoreFromJournal('baseline', journal) });
    expect(result.status).toBe('succeeded');
    const left = (await readdir(runDir)).filter(
      (name) => name.startsWith('finished-commanders-') || name.startsWith('knowledge-'),
    );
    expect(left).toEqual([]);
  });

  it('a tool call that had not finished gets the interrupted result, and the model calls it again', async () => {
    const journal = journalUpTo(
      (event) =>
        event.type === 'message.appended' &&
        event.conversation === 'commander:gather' &&
        JSON.stringify(event.message).includes('complete_subtask'),
    );
    const before = server.requests.length;
    const { result } = await run({ resume: restoreFromJournal('baseline', journal) });
    expect(result.status).toBe('succeeded');
    const input = firstInputOf('commander:gather', before);
    const last = input.at(-1);
    expect(last).toMatchObject({ type: 'function_call_output' });
    expect(JSON.parse(String(last?.output))).toEqual({
      status: 'error',
      error: 'interrupted by a restart; call it again if it is still needed',
    });
  });
});

describe('resuming a run cut after any event', () => {
  it('has a baseline that uses every kind of step the cuts land in', () => {
    const types = new Set(complete.map((event) => event.type));
    for (const type of ['message.appended', 'tool.completed', 'plan.updated', 'output.submitted']) {
      expect(types).toContain(type);
    }
    expect(complete.length).toBeGreaterThan(100);
  });

  // Cuts spread from the first mission event to the one before the end (the baseline has
  // about 180 events: two in three points are cut).
  const cuts = Array.from({ length: 120 }, (_, index) => index);
  it.each(cuts)(
    'cut %i of 120: finishes, re-runs nothing that succeeded, keeps each output once',
    async (slot) => {
      const first = complete.findIndex((event) => event.type === 'mission.started') + 1;
      const cut = first + Math.floor(((complete.length - 1 - first) * slot) / 119);
      const journal = complete.slice(0, cut);
      const state = restoreFromJournal('baseline', journal);
      const before = server.requests.length;
      const { result, events } = await run({ resume: state });

      expect(result.status).toBe('succeeded');
      expect(outputsOf(result)).toEqual(EXPECTED_OUTPUTS);
      const succeeded = journal.filter((event) => event.type === 'task.succeeded');
      const actors = server.requests.slice(before).map((request) => request.actor ?? '');
      for (const { task } of succeeded as Array<{ task: string }>) {
        expect(actors.filter((actor) => worksFor(actor, task))).toEqual([]);
      }
      const doneItems = journal.filter((event) => event.type === 'iteration.succeeded');
      for (const item of doneItems as Array<{ index: number }>) {
        expect(actors.filter((actor) => actor === `commander:each[${item.index}]`)).toEqual([]);
      }
      // The journal of the whole run (before and after the crash) reads back to the same outputs.
      const summary = summarizeRun([...journal, ...events]);
      expect(summary.status).toBe('succeeded');
      const tasks = new Map(summary.tasks.map((task) => [task.name, task]));
      expect(tasks.get('gather')?.output).toEqual(EXPECTED_OUTPUTS.gather);
      expect(tasks.get('each')?.items.map((item) => item.output)).toEqual(EXPECTED_OUTPUTS.each);
      // Seq numbering continues where the journal stopped.
      expect(events[0]?.seq).toBe(state.lastSeq + 1);
      // The report's query saw every item, however much of the run was restored.
      const queried = events.filter(
        (event) => event.type === 'tool.completed' && event.tool === 'query_task_output',
      );
      for (const event of queried as Array<{ result: string }>) {
        expect(JSON.parse(event.result)).toMatchObject({ status: 'ok', result: 3 });
      }
    },
  );
});
