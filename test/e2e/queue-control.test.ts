/**
 * The control path of a distributed run, with two real worker processes and a real
 * redis-server: a worker's actor stops at the run's step gate and goes on when the person steps
 * or continues; an agent on a worker asks the run's person and gets the answer.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DebugGate } from '../../src/runtime/gate.ts';
import { ScriptedModelServer, type RespondRequest } from '../../src/testing/index.ts';
import {
  anthropicCallsSoFar,
  largeResultProject,
  pageText,
  respondToPages,
} from '../actors/resume/large-result-fixture.ts';
import { askTurn, eventsOf, heldPoints, startQueuedRun } from './queue-control-harness.ts';
import {
  startRedis,
  startWorker,
  tearDownQueueTest,
  waitForOutput,
  type RedisServer,
  type WorkerProcess,
} from './queue-harness.ts';

const PAGE_BYTES = 40;

let server: ScriptedModelServer;
let redis: RedisServer;
let plainProject: string;
let askingProject: string;
let stateDir: string;
const workers: WorkerProcess[] = [];

function offersHumanAsk(body: unknown): boolean {
  const tools = (body as { tools?: Array<{ name?: string }> }).tools ?? [];
  return tools.some((tool) => tool.name === 'builtins_human_ask');
}

/** The pages' script; a reader that may ask the person first asks, then reads. */
function respond(request: RespondRequest) {
  const reader = /^agent:read\[(\d+)\]\/reader$/.exec(request.actor ?? '');
  if (reader !== null && offersHumanAsk(request.body)) {
    const index = Number(reader[1]);
    return anthropicCallsSoFar(request.body) === 0
      ? askTurn(index)
      : { text: pageText(index, PAGE_BYTES), usage: { input: 50, output: 8 } };
  }
  return respondToPages(PAGE_BYTES)(request);
}

beforeAll(async () => {
  server = await ScriptedModelServer.start({ respond });
  redis = await startRedis();
  plainProject = mkdtempSync(join(tmpdir(), 'sortie-queue-control-'));
  writeFileSync(join(plainProject, 'main.hcl'), largeResultProject(2));
  askingProject = mkdtempSync(join(tmpdir(), 'sortie-queue-control-ask-'));
  const asking = largeResultProject(2).replace(
    'personality = "You read pages aloud."',
    'personality = "You read pages aloud."\n  tools = [builtins.human.ask]',
  );
  writeFileSync(join(askingProject, 'main.hcl'), asking);
  stateDir = mkdtempSync(join(tmpdir(), 'sortie-queue-control-state-'));
  const target = { stateDir, baseUrl: server.baseUrl('anthropic') };
  for (let count = 0; count < 2; count++) workers.push(await startWorker(redis.url, target));
}, 120_000);

afterAll(async () => {
  await tearDownQueueTest({
    workers,
    redis,
    server,
    folders: [plainProject, askingProject, stateDir],
  });
});

function options(root: string) {
  return { root, stateDir, redisUrl: redis.url, baseUrl: server.baseUrl('anthropic') };
}

describe('step debugging across workers', () => {
  it('holds the workers actors at the run gate and lets them go on a step, then a continue', async () => {
    const gate = new DebugGate({ startPaused: true });
    const run = await startQueuedRun({ ...options(plainProject), gate });

    // Both items' commanders stop before their first model request, on the workers.
    await heldPoints(gate, 2);
    const first = gate.held();
    expect(first.map((point) => [point.kind, point.actor]).sort()).toEqual([
      ['model', 'commander:read[0]'],
      ['model', 'commander:read[1]'],
    ]);
    const requestsWhileHeld = server.requests.length;

    // A step lets the oldest go: it sends its request and stops at its next point, its tool call.
    const stepped = gate.step();
    await heldPoints(gate, 2);
    const next = gate.held().find((point) => point.actor === stepped?.actor);
    expect(next?.kind).toBe('tool');
    expect(next?.tool).toBe('set_subtasks');

    gate.continue();
    const result = await run.done;
    expect(result.status).toBe('succeeded');
    expect(requestsWhileHeld).toBe(0);
    expect(server.requests.length).toBe(12);

    const paused = eventsOf(run.events, 'gate.paused');
    const resumed = eventsOf(run.events, 'gate.resumed');
    expect(paused.map((event) => event.actor)).toEqual([
      ...first.map((point) => point.actor),
      stepped?.actor,
    ]);
    expect(resumed.map((event) => [event.actor, event.how])).toEqual([
      [stepped?.actor, 'step'],
      [first[1]?.actor, 'continue'],
      [stepped?.actor, 'continue'],
    ]);
    // Each point is held before the request it guards and after the worker's earlier events.
    const where = (type: string, nth = 0) =>
      run.events
        .map((event, index) => ({ event, index }))
        .filter(({ event }) => event.type === type && event.actor === stepped?.actor)[nth]?.index;
    expect(where('gate.paused', 0)).toBeLessThan(where('model.request', 0) ?? -1);
    expect(where('model.response', 0)).toBeLessThan(where('gate.paused', 1) ?? -1);
    expect(where('gate.resumed', 1)).toBeLessThan(where('tool.completed', 0) ?? -1);
  }, 120_000);
});

describe('questions to the person from a worker', () => {
  it('asks the run person through the run desk and gives the agent the answer', async () => {
    const before = server.requests.length;
    const run = await startQueuedRun({
      ...options(askingProject),
      human: { available: false, answerer: (question) => `yes: ${question.question}` },
    });
    const result = await run.done;
    expect(result.status).toBe('succeeded');

    const asked = eventsOf(run.events, 'human.asked');
    expect(asked.map((event) => [event.actor, event.question]).sort()).toEqual([
      ['agent:read[0]/reader', 'Read page 0?'],
      ['agent:read[1]/reader', 'Read page 1?'],
    ]);
    const answered = eventsOf(run.events, 'human.answered');
    expect(answered.map((event) => [event.actor, event.answer, event.how]).sort()).toEqual([
      ['agent:read[0]/reader', 'yes: Read page 0?', 'person'],
      ['agent:read[1]/reader', 'yes: Read page 1?', 'person'],
    ]);
    // Each reader's next request carries the person's answer as the tool's result.
    const readers = server.requests
      .slice(before)
      .filter((request) => /^agent:read\[\d\]\/reader$/.test(request.actor ?? ''));
    const answers = readers.flatMap((request) => {
      const text = JSON.stringify(request.body);
      return /yes: Read page (\d)\?/.exec(text)?.[1] ?? [];
    });
    expect(answers.sort()).toEqual(['0', '1']);
    expect(server.requests.length - before).toBe(2 * 7);
  }, 120_000);
});

describe('cancelling a distributed run', () => {
  it('stops the tries held on the workers and lets go of their gate points', async () => {
    const gate = new DebugGate({ startPaused: true });
    const run = await startQueuedRun({ ...options(plainProject), gate });
    await heldPoints(gate, 2);
    const { runId } = run.handle;
    // Each try is settled on whichever worker holds it.
    const stoppedOnWorkers = Promise.all(
      [0, 1].map((index) =>
        Promise.any(
          workers.map((worker) =>
            waitForOutput(worker.process, 'stderr', `${runId} read[${index}] try 1 `),
          ),
        ),
      ),
    );
    run.handle.cancel();
    expect((await run.done).status).toBe('cancelled');
    await stoppedOnWorkers;
    expect(gate.held()).toEqual([]);
    const resumed = eventsOf(run.events, 'gate.resumed');
    expect(resumed.map((event) => event.how)).toEqual(['aborted', 'aborted']);
  }, 120_000);
});
