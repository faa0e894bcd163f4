/**
 * `sortie resume` through the real CLI: a multi-task mission against the scripted model
 * server is killed with SIGKILL at random points (after a random number of its JSON event
 * lines, so the journal loses whatever batch was not flushed), sometimes killed again while
 * resuming, then resumed to the end. Every time: the run finishes, no task or item that had
 * succeeded runs again, and every output is in the journal exactly once.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { summarizeRun } from '../../src/journal/summary.ts';
import { ScriptedModelServer } from '../../src/testing/index.ts';
import {
  EXPECTED_OUTPUTS,
  RESUME_PROJECT,
  respondToResumable,
} from '../actors/resume/resume-fixture.ts';
import { journalOf, sortie as runSortie, type Child } from './cli-resume-harness.ts';
import { temporaryDirectorySync } from '../helpers/temp-dir.ts';

/** Events a complete run prints (about 180); kills land before the last. */
const KILL_RANGE = 170;

let server: ScriptedModelServer;
let project: string;

beforeAll(async () => {
  // A short delay per reply spreads the run over time, so kills land mid-request too.
  server = await ScriptedModelServer.start({
    respond: (request) => {
      const turn = respondToResumable(request);
      return turn === undefined ? undefined : { ...turn, delayMs: 5 };
    },
  });
  project = temporaryDirectorySync('crash');
  writeFileSync(join(project, 'main.hcl'), RESUME_PROJECT);
});

afterAll(async () => {
  await server.close();
});

function sortie(args: string[], stateDir: string, killAfter?: number): Child {
  return runSortie(args, { stateDir, baseUrl: server.baseUrl('openai') }, killAfter);
}

/** A seeded generator (mulberry32), so a failing sequence of kill points can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

const SEED = 20261122;
const next = random(SEED);
const TRIALS = Array.from({ length: 6 }, (_, trial) => {
  const firstKill = 2 + Math.floor(next() * KILL_RANGE);
  // Every other trial also kills the first resume, a few events in.
  const secondKill = trial % 2 === 1 ? 2 + Math.floor(next() * 40) : undefined;
  const label =
    `killed after ${firstKill} events` +
    (secondKill === undefined ? '' : `, its resume after ${secondKill}`);
  return [label, { firstKill, secondKill }] as const;
});

describe(`kill -9 at random points, then sortie resume (seed ${SEED})`, () => {
  it.each(TRIALS)(
    '%s: the run finishes with every output once',
    async (_label, { firstKill, secondKill }) => {
      const stateDir = temporaryDirectorySync('crash-state');
      const first = sortie(['run', project, '--input', 'topic=things'], stateDir, firstKill);
      const runId = await first.runId;
      const code = await first.exited;
      if (code === 0) return expect.fail(`the run finished before its kill: ${first.stderr()}`);
      const beforeResume = journalOf(stateDir, runId);
      const requestsBefore = server.requests.length;

      if (secondKill !== undefined) {
        const interrupted = sortie(['resume', runId, project], stateDir, secondKill);
        await interrupted.exited;
      }
      const resumed = sortie(['resume', runId, project], stateDir);
      expect(await resumed.exited, resumed.stderr()).toBe(0);
      // The mission's inputs came from the journal (none were given to resume).
      const restarts = journalOf(stateDir, runId).filter(
        (event) => event.type === 'mission.started',
      );
      for (const event of restarts) expect(event).toMatchObject({ inputs: { topic: 'things' } });

      const journal = journalOf(stateDir, runId);
      const summary = summarizeRun(journal);
      expect(summary.status).toBe('succeeded');
      const tasks = new Map(summary.tasks.map((task) => [task.name, task]));
      expect(tasks.get('gather')?.output).toEqual(EXPECTED_OUTPUTS.gather);
      expect(tasks.get('each')?.items.map((item) => item.output)).toEqual(EXPECTED_OUTPUTS.each);
      expect(tasks.get('report')?.status).toBe('succeeded');

      // No task that had succeeded ran again: after the crash, its actors sent no request.
      const actors = server.requests.slice(requestsBefore).map((request) => request.actor ?? '');
      for (const event of beforeResume) {
        if (event.type === 'task.succeeded') {
          const own = new RegExp(`^(commander|agent):${event.task}(\\[|/|$)`);
          // Question forks answer for the task that asks (report asks gather's agent).
          expect(actors.filter((actor) => own.test(actor) && !actor.includes('#'))).toEqual([]);
        }
        if (event.type === 'iteration.succeeded') {
          expect(actors).not.toContain(event.actor);
        }
      }
      // Each task succeeded exactly once; later sessions only restored it.
      for (const name of ['gather', 'each', 'report']) {
        const ran = journal.filter(
          (event) => event.type === 'task.started' && event.task === name && !event.restored,
        );
        const succeeded = journal.filter(
          (event) => event.type === 'task.succeeded' && event.task === name,
        );
        const restored = journal.filter(
          (event) => event.type === 'task.started' && event.task === name && event.restored,
        );
        expect(succeeded.length - restored.length, name).toBe(1);
        expect(ran.length, name).toBeGreaterThanOrEqual(1);
      }
      // Each item's output was accepted exactly once.
      const items = journal.filter((event) => event.type === 'iteration.succeeded');
      expect(items.map((event) => (event as { index: number }).index).sort()).toEqual([0, 1, 2]);
      // The journal numbers its events without gaps or repeats across the sessions.
      const seqs = journal.map((event) => event.seq);
      expect(new Set(seqs).size).toBe(seqs.length);
      expect(seqs).toEqual([...seqs].sort((left, right) => left - right));
    },
    60_000,
  );

  it('refuses to resume a run that succeeded, with a one-line reason and exit 2', async () => {
    const stateDir = temporaryDirectorySync('crash-state');
    const run = sortie(['run', project, '--input', 'topic=things'], stateDir);
    const runId = await run.runId;
    expect(await run.exited).toBe(0);
    const again = sortie(['resume', runId, project], stateDir);
    expect(await again.exited).toBe(2);
    expect(again.stderr()).toBe(`error: run ${runId} succeeded; there is nothing to resume\n`);
    expect(readdirSync(join(stateDir, 'runs'))).toEqual([runId]);
  }, 60_000);
});
