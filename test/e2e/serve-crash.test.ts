/**
 * A served run survives its server: `kill -9` of `sortie serve` mid-run, then a new server on
 * the same state directory resumes the run and finishes it, and no model request that had
 * been answered is sent again (the scripted server's log). A server stopped with SIGTERM
 * cancels what is still running after its grace, exits 0, and the next server resumes it.
 * A server started with `--no-resume` leaves a killed run interrupted for the next one.
 */
import { watch } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { MissionEvent } from '../../src/base/events.ts';
import type { ScriptedModelServer } from '../../src/testing/index.ts';
import { callsSoFar } from '../actors/resume/resume-fixture.ts';
import { builtBin, builtCli } from './built-cli.ts';
import { runChild } from './cli-child.ts';
import { journalOf } from './cli-resume-harness.ts';
import {
  api,
  greeting,
  serveProject,
  startServe,
  startServedModel,
  stopServe,
  type Served,
} from './serve-harness.ts';

const cleanups: Array<() => Promise<unknown>> = [];
beforeAll(async () => {
  // The build is made once per suite run; the first test file to ask waits for it.
  await builtCli();
}, 240_000);

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Resolves once the run's journal on disk holds an event `accepts` (watched, never polled). */
function journalReaches(
  stateDir: string,
  runId: string,
  accepts: (event: MissionEvent) => boolean,
): Promise<void> {
  const reached = (): boolean => {
    try {
      return journalOf(stateDir, runId).some(accepts);
    } catch {
      return false;
    }
  };
  return new Promise((resolve, reject) => {
    const watcher = watch(stateDir, { recursive: true }, () => {
      if (reached()) {
        watcher.close();
        resolve();
      }
    });
    watcher.on('error', reject);
    if (reached()) {
      watcher.close();
      resolve();
    }
  });
}

/**
 * A model server that holds the first request of `commander:hello` after two tool calls (its
 * third turn) until the test is over; `held` resolves when it arrives.
 */
async function holdingModel(): Promise<{ model: ScriptedModelServer; held: Promise<void> }> {
  let arrived: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (arrived = resolve));
  let holding = true;
  const model = await startServedModel((request) => {
    if (request.actor !== 'commander:hello' || callsSoFar(request.body) !== 2 || !holding) {
      return undefined;
    }
    holding = false;
    arrived();
    return 600_000;
  });
  cleanups.push(() => model.close());
  return { model, held };
}

/** The tool calls each of `commander:hello`'s requests had made before it (its turn). */
function commanderTurns(model: ScriptedModelServer): number[] {
  return model.requests
    .filter((request) => request.actor === 'commander:hello')
    .map((request) => callsSoFar(request.body));
}

async function started(): Promise<{ project: string; stateDir: string }> {
  const made = await serveProject();
  return made;
}

function startRun(served: Served): Promise<string> {
  return api(served, 'POST', '/api/missions/greet/runs', {
    body: { inputs: { name: 'Cy' } },
  }).then((answer) => String(answer.body.run_id));
}

/** How many events of `type` the run's journal holds for `commander:hello` (or the run). */
function journaled(stateDir: string, runId: string, type: MissionEvent['type']): number {
  return journalOf(stateDir, runId).filter(
    (event) => event.type === type && (type === 'run.started' || event.actor === 'commander:hello'),
  ).length;
}

/** Kills a server with SIGKILL once its run's third commander request is held and journaled. */
async function killHeld(served: Served, stateDir: string, runId: string, held: Promise<void>) {
  await held;
  // The held request is on disk: every request before it, and its answer, is too.
  await journalReaches(
    stateDir,
    runId,
    (event) =>
      event.type === 'model.request' && event.actor === 'commander:hello' && event.turn === 3,
  );
  served.process.kill('SIGKILL');
  expect(await served.exited).toBe(null);
}

async function expectFinished(served: Served, runId: string): Promise<void> {
  await served.line(new RegExp(`^run ${runId} succeeded`));
  const run = await api(served, 'GET', `/api/runs/${runId}`);
  expect(run.body).toMatchObject({ status: 'succeeded', resumed: true });
  expect((run.body.tasks as Array<{ output: unknown }>)[0]?.output).toEqual({
    text: greeting('Cy'),
  });
}

describe('sortie serve after a crash or a stop', () => {
  it('kill -9 mid-run: the next server resumes the run, no answered request sent again', async () => {
    const { project, stateDir } = await started();
    const { model, held } = await holdingModel();
    const first = await startServe(project, stateDir, model);
    cleanups.push(() => stopServe(first));
    const runId = await startRun(first);
    await killHeld(first, stateDir, runId, held);
    expect(await readdir(join(stateDir, 'serve', 'in-flight'))).toEqual([runId]);

    const second = await startServe(project, stateDir, model);
    cleanups.push(() => stopServe(second));
    await second.line(new RegExp(`^run ${runId} started · mission greet · resume$`));
    await expectFinished(second, runId);
    // Turn 3 was held when the server died: only it is asked again.
    expect(commanderTurns(model)).toEqual([0, 1, 2, 2, 3]);
    expect(await readdir(join(stateDir, 'serve', 'in-flight'))).toEqual([]);
  }, 60_000);

  it('--no-resume leaves a killed run interrupted; a plain restart then resumes it', async () => {
    const { project, stateDir } = await started();
    const { model, held } = await holdingModel();
    const first = await startServe(project, stateDir, model);
    cleanups.push(() => stopServe(first));
    const runId = await startRun(first);
    await killHeld(first, stateDir, runId, held);

    const idle = await startServe(project, stateDir, model, ['--no-resume', '--grace', '0']);
    cleanups.push(() => stopServe(idle));
    expect((await api(idle, 'GET', `/api/runs/${runId}`)).body).toMatchObject({
      status: 'interrupted',
      resumed: false,
    });
    const shown = await runChild(process.execPath, [
      ...builtBin(await builtCli()),
      'show',
      runId,
      '--state-dir',
      stateDir,
    ]);
    expect(shown.status).toBe(0);
    expect(shown.stdout.split('\n')[0]).toBe(`run ${runId} · greet · interrupted`);
    idle.process.kill('SIGTERM');
    expect(await idle.exited).toBe(0);
    // A server that resumed the run would have started it (and cancelled it at its stop).
    expect(idle.lines.filter((line) => line.startsWith('run '))).toEqual([]);
    expect(commanderTurns(model)).toEqual([0, 1, 2]);
    expect(journaled(stateDir, runId, 'run.started')).toBe(1);
    expect(await readdir(join(stateDir, 'serve', 'in-flight'))).toEqual([runId]);

    const second = await startServe(project, stateDir, model);
    cleanups.push(() => stopServe(second));
    await second.line(new RegExp(`^run ${runId} started · mission greet · resume$`));
    await expectFinished(second, runId);
    // Only the request held when the first server died is asked again; each is answered once.
    expect(commanderTurns(model)).toEqual([0, 1, 2, 2, 3]);
    expect(journaled(stateDir, runId, 'run.started')).toBe(2);
    expect(journaled(stateDir, runId, 'model.response')).toBe(4);
  }, 60_000);

  it('SIGTERM: the run is cancelled after the grace, the server exits 0, the next one resumes it', async () => {
    const { project, stateDir } = await started();
    const { model, held } = await holdingModel();
    const first = await startServe(project, stateDir, model, ['--grace', '0']);
    const runId = await startRun(first);
    await held;
    first.process.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(first.lines.filter((line) => /^(run|stop)/.test(line))).toEqual([
      `run ${runId} started · mission greet · api`,
      'stopping: running runs have 0s to finish (signal again to cancel them now)',
      `run ${runId} cancelled · mission greet`,
      'stopped',
    ]);
    const second = await startServe(project, stateDir, model);
    cleanups.push(() => stopServe(second));
    await expectFinished(second, runId);
  }, 60_000);
});
