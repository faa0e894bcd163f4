/**
 * A worker's life seen from the run, with a real redis-server and real `sortie worker`
 * processes: a worker killed while its actor is held at the run's step gate leaves the gate;
 * a worker stopped (SIGTERM) while its items wait at the gate of a run process that died hands
 * them back and exits; a worker that took items of many runs keeps no connection per run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openRedis } from '../../src/actors/queue/queue-connection.ts';
import { jobIdOf, QUEUE_NAME } from '../../src/actors/queue/queue-keys.ts';
import { DebugGate, type GateNotice } from '../../src/runtime/gate.ts';
import { applyEvents, initialState } from '../../src/tui/store/index.ts';
import { largeResultProject, respondToPages } from '../actors/resume/large-result-fixture.ts';
import { CLI_ENV, ROOT } from './cli-child.ts';
import { sortie } from './cli-resume-harness.ts';
import { eventsOf, heldPoints, startQueuedRun } from './queue-control-harness.ts';
import {
  projectFolder,
  queueTestForFile,
  startWorker,
  type WorkerOptions,
  type WorkerProcess,
} from './queue-harness.ts';

const PAGE_BYTES = 40;
/** Requests of one item: five commander turns and one agent turn. */
const PER_ITEM = 6;

/** The test's own connection: CLIENT LIST, the queue's job states. */
let client: Redis;

const queue = queueTestForFile({ name: 'queue-life', respond: respondToPages(PAGE_BYTES) });
const oneItem = projectFolder('queue-life-one', largeResultProject(1));
const twoItems = projectFolder('queue-life-two', largeResultProject(2));

beforeAll(() => {
  client = openRedis(queue.redis.url);
});

afterEach(() => queue.stopWorkers());

afterAll(() => {
  client.disconnect();
});

async function worker(settings: WorkerOptions = {}): Promise<WorkerProcess> {
  const started = await startWorker(queue.redis.url, queue.target, settings);
  queue.workers.push(started);
  return started;
}

/** Resolves with how the gate's next released point went on. */
function nextResumed(gate: DebugGate): Promise<Extract<GateNotice, { type: 'gate.resumed' }>> {
  return new Promise((resolve) => {
    const remove = gate.onNotice((notice) => {
      if (notice.type !== 'gate.resumed') return;
      remove();
      resolve(notice);
    });
  });
}

describe('a worker killed while its actor is held at the run gate', () => {
  it('leaves the gate (journaled as aborted), and the item new try holds its own point', async () => {
    const first = await worker({ concurrency: 1, lockTimeout: 2 });
    const gate = new DebugGate({ startPaused: true });
    const run = await startQueuedRun({ ...queue.runOptions(oneItem), gate });
    await heldPoints(gate, 1);
    expect(gate.held().map((point) => [point.kind, point.actor])).toEqual([
      ['model', 'commander:read[0]'],
    ]);

    // The run process finds the worker gone and lets go of its point.
    const letGo = nextResumed(gate);
    first.process.kill('SIGKILL');
    expect(await first.exited).toBe(null);
    const notice = await letGo;
    expect([notice.point.actor, notice.how]).toEqual(['commander:read[0]', 'aborted']);
    expect(gate.held()).toEqual([]);
    // The TUI, fed the run's events, shows nothing held any more.
    const tui = applyEvents(initialState(), run.events);
    expect([tui.held, tui.header.paused]).toEqual([[], false]);

    // Another worker takes the item over (stalled-job recovery) and stops at the gate anew.
    await worker({ lockTimeout: 2 });
    await heldPoints(gate, 1);
    expect(gate.held().map((point) => [point.kind, point.actor])).toEqual([
      ['model', 'commander:read[0]'],
    ]);
    gate.continue();
    expect((await run.done).status).toBe('succeeded');
    const paused = eventsOf(run.events, 'gate.paused').map((event) => event.actor);
    expect(paused).toEqual(['commander:read[0]', 'commander:read[0]']);
    const resumed = eventsOf(run.events, 'gate.resumed').map((event) => [event.actor, event.how]);
    expect(resumed).toEqual([
      ['commander:read[0]', 'aborted'],
      ['commander:read[0]', 'continue'],
    ]);
  }, 120_000);
});

/** The run id the gated run process prints once its gate holds the points. */
function heldRunId(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let printed = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      printed += chunk.toString();
      const held = /held (\S+)\n/.exec(printed);
      if (held?.[1] !== undefined) resolve(held[1]);
    });
    child.once('exit', (code) => reject(new Error(`the run process exited (${code}): ${printed}`)));
  });
}

describe('a worker stopped while its items wait at the gate of a run process that died', () => {
  it('hands the items back to the queue and exits 0; the resumed run has them finished', async () => {
    const before = queue.server.requests.length;
    const stopping = await worker({ concurrency: 2 });
    // The run's process, held at its gate with both items on the worker, then killed.
    const runProcess = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'test/e2e/queue-gated-run.ts',
        twoItems,
        queue.target.stateDir,
        queue.redis.url,
        queue.target.baseUrl,
        '2',
      ],
      { cwd: ROOT, env: { ...process.env, ...CLI_ENV }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const runExited = new Promise((resolve) => runProcess.once('exit', resolve));
    const runId = await heldRunId(runProcess);
    runProcess.kill('SIGKILL');
    await runExited;

    stopping.process.kill('SIGTERM');
    expect(await stopping.exited).toBe(0);
    expect(stopping.stderr()).toContain(
      'sortie worker stopped: 0 succeeded, 0 failed, 2 handed back to the queue\n',
    );
    expect(queue.server.requests.length - before).toBe(0);
    const jobs = new Queue(QUEUE_NAME, { connection: client });
    const states = await Promise.all(
      [0, 1].map((index) => jobs.getJobState(jobIdOf(runId, 'read', index, 1))),
    );
    await jobs.close();
    expect(states).toEqual(['waiting', 'waiting']);

    // Resumed, the run's items are taken by another worker and finish, each asked once. The
    // worker takes them before the run process is back: their gate points wait for it.
    await worker();
    const resumed = sortie(['resume', runId, twoItems, '--queue', queue.redis.url], queue.target);
    expect(await resumed.exited, resumed.stderr()).toBe(0);
    expect(queue.server.requests.length - before).toBe(2 * PER_ITEM);
  }, 180_000);
});

/** The connections Redis lists, but the test's own. */
async function connectionsBesidesOurs(): Promise<number> {
  const list = String(await client.client('LIST'));
  const ours = Number(await client.client('ID'));
  return list
    .split('\n')
    .filter((line) => line.startsWith('id='))
    .filter((line) => !line.startsWith(`id=${ours} `)).length;
}

/**
 * The connections after a run has closed its own: Redis frees a closed connection when it
 * next reads its socket, so the count is read again (a round trip each) until it is back to
 * `idle` or has stayed above it for many reads.
 */
async function connectionsAfterRun(idle: number): Promise<number> {
  let count = await connectionsBesidesOurs();
  for (let read = 0; read < 100 && count > idle; read++) count = await connectionsBesidesOurs();
  return count;
}

describe('the connections of a worker that takes items of many runs', () => {
  it('are back to the idle worker count after each run', async () => {
    await worker({ concurrency: 2 });
    const idle = await connectionsBesidesOurs();
    const counts: number[] = [];
    for (let run = 0; run < 5; run++) {
      const queued = await startQueuedRun(queue.runOptions(oneItem));
      expect((await queued.done).status).toBe('succeeded');
      counts.push(await connectionsAfterRun(idle));
    }
    expect(counts).toEqual([idle, idle, idle, idle, idle]);
  }, 180_000);
});
