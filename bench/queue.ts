/**
 * Distributed runs (issue 13): `sortie run --queue` over N items on a 200 ms model with 1, 2 and
 * 4 real `sortie worker` processes (the compiled CLI, as installed) and a real redis-server,
 * each worker running `perWorker` items at once and the task's `concurrency_limit` at
 * workers × perWorker. Throughput is items per second between the first `iteration.started`
 * and the task's end in the run's journal; "of linear" is that throughput over (workers × the
 * one-worker throughput). CPU per item of each process (run, workers together, redis-server,
 * this process, which is the scripted model server) is its user + system time over the same
 * span, from /proc, divided by the items. Two settings: `PER_WORKER` (the figure, which
 * on a 2-core machine makes the whole machine CPU-bound at 4 workers) and `LOW_PER_WORKER`
 * over `LOW_ITEMS` items, where it is not, so the ratio shows the design rather than the cores.
 *
 *   node_modules/.bin/tsx bench/queue.ts [ITEMS=2000] [PER_WORKER=16] [LOW_PER_WORKER=4] [LOW_ITEMS=500]
 *
 * `SORTIE_BENCH_PROFILE=DIR` writes a `--cpu-prof` profile of every CLI process into DIR;
 * `SORTIE_BENCH_WORKERS=1,4` measures only those worker counts; `SORTIE_BENCH_ROOT=DIR`
 * measures the sources of another checkout (with this one's node_modules), for figures before
 * a change.
 */
import { spawn } from 'node:child_process';
import { cpus, loadavg, tmpdir } from 'node:os';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ScriptedModelServer } from '../src/testing/index.ts';
import { anthropicCallsSoFar } from '../test/actors/resume/large-result-fixture.ts';
import { journalOf } from '../test/e2e/cli-resume-harness.ts';
import { CLI_ENV, ROOT } from '../test/e2e/cli-child.ts';
import { startRedisIn, startWorker, stopWorker } from '../test/e2e/queue-processes.ts';
import { buildCli, cpuMsOf } from './built-cli.ts';
import { CpuSampler, type CpuReading } from './cpu-sampler.ts';

// The CLI indexes every run under XDG_STATE_HOME (else ~/.local/state): the bench's runs go to
// an index of their own, never the user's.
const stateHome = mkdtempSync(join(tmpdir(), 'sortie-bench-state-'));
process.env.XDG_STATE_HOME = stateHome;

const ITEMS = Number(process.argv[2] ?? 2000);
const PER_WORKER = Number(process.argv[3] ?? 16);
const LOW_PER_WORKER = Number(process.argv[4] ?? 4);
const LOW_ITEMS = Number(process.argv[5] ?? 500);
const MODEL_MS = 200;
const WORKER_COUNTS = (process.env.SORTIE_BENCH_WORKERS ?? '1,2,4').split(',').map(Number);
const PROFILE_DIR = process.env.SORTIE_BENCH_PROFILE;
const CHILD_ENV: Record<string, string | undefined> = { ...CLI_ENV, SORTIE_RUN_SOURCES: undefined };
/** Node's arguments that start the compiled CLI. */
const CLI = [
  ...(PROFILE_DIR === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`]),
  join(builtCopy(process.env.SORTIE_BENCH_ROOT), 'cli/main.js'),
];

/** Compiles this checkout, or another one into a folder of its own; the folder of `cli/`. */
function builtCopy(root: string | undefined): string {
  return root === undefined ? buildCli('sortie-bench-queue') : buildCli('sortie-bench-other', root);
}

function project(items: number, limit: number): string {
  const list = Array.from({ length: items }, (_, index) => `{ n = ${index} }`).join(', ');
  return `
variable "api_key" {
  secret = true
}
variable "base_url" {
}
model "main" {
  provider = "anthropic"
  api_key = vars.api_key
  base_url = vars.base_url
}
mission "bench" {
  commander {
    model = models.main.claude_haiku_4_5
  }
  dataset "items" {
    items = [${list}]
  }
  task "work" {
    objective = "Work on item \${item.n}"
    iterator {
      dataset = datasets.items
      parallel = true
      concurrency_limit = ${limit}
    }
    output = {
      n = number("The item's number", true)
    }
  }
}
`;
}

/** Two 200 ms turns per item: plan, complete the subtask and submit the output; then complete. */
const server = await ScriptedModelServer.start({
  respond: (request) => {
    const match = /^commander:work\[(\d+)\]$/.exec(request.actor ?? '');
    if (match === null) return undefined;
    const usage = { input: 100, output: 10 };
    const step = anthropicCallsSoFar(request.body);
    if (step === 0) {
      const output = { n: Number(match[1]) };
      const toolCalls = [
        { name: 'set_subtasks', arguments: { subtasks: ['Work'] } },
        { name: 'complete_subtask', arguments: {} },
        { name: 'submit_output', arguments: { output } },
      ];
      return { toolCalls, usage, delayMs: MODEL_MS };
    }
    const summary = 'done';
    return {
      toolCalls: [{ name: 'task_complete', arguments: { summary } }],
      usage,
      delayMs: MODEL_MS,
    };
  },
});

/** What one run measured. */
interface Measured {
  itemsPerSecond: number;
  seconds: number;
  /** CPU milliseconds per item of each process group over the measured span. */
  cpuPerItem: { run: number; workers: number; redis: number; server: number };
}

/** Runs `sortie run --queue` to its end; its exit code and pid. */
function runToEnd(folder: string, url: string, stateDir: string) {
  const args = ['run', folder, '--queue', url, '--state-dir', stateDir];
  const vars = [
    '--var',
    'api_key=sk-bench-queue',
    '--var',
    `base_url=${server.baseUrl('anthropic')}`,
  ];
  const child = spawn(process.execPath, [...CLI, ...args, ...vars], {
    cwd: ROOT,
    env: { ...process.env, ...CHILD_ENV },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { pid: child.pid, exited, stderr: () => stderr };
}

/** Items per second and CPU per item of one run with `workers` workers. */
async function measure(workers: number, perWorker: number, items: number): Promise<Measured> {
  const folder = mkdtempSync(join(tmpdir(), 'sortie-bench-queue-'));
  mkdirSync(join(folder, 'redis'));
  const redis = await startRedisIn(join(folder, 'redis'));
  writeFileSync(join(folder, 'main.hcl'), project(items, workers * perWorker));
  const stateDir = join(folder, '.state');
  const target = { stateDir, baseUrl: server.baseUrl('anthropic') };
  const started = [];
  const readings = new Map<string, CpuReading>([
    ['redis', () => cpuMsOf(redis.process.pid)],
    ['server', () => process.cpuUsage().user / 1000 + process.cpuUsage().system / 1000],
  ]);
  // Workers and Redis are stopped however the run ends: a failed run must not leave them behind.
  try {
    for (let count = 0; count < workers; count++) {
      const worker = await startWorker(redis.url, target, {
        concurrency: perWorker,
        cli: CLI,
        env: CHILD_ENV as Record<string, string>,
      });
      started.push(worker);
      readings.set(`worker${count}`, () => cpuMsOf(worker.process.pid));
    }
    const run = runToEnd(folder, redis.url, stateDir);
    readings.set('run', () => cpuMsOf(run.pid));
    const sampler = new CpuSampler(readings);
    const code = await run.exited;
    sampler.stop();
    const [runId = ''] = readdirSync(join(stateDir, 'runs'));
    const events = journalOf(stateDir, runId);
    if (code !== 0) {
      const failed = events.filter((event) => event.type === 'iteration.failed').slice(0, 1);
      throw new Error(`the run exited with ${code}: ${JSON.stringify(failed)} ${run.stderr()}`);
    }
    const from = Date.parse(events.find((event) => event.type === 'iteration.started')?.time ?? '');
    const to = Date.parse(events.find((event) => event.type === 'task.succeeded')?.time ?? '');
    const per = (name: string): number => sampler.between(name, from, to) / items;
    const workerNames = [...readings.keys()].filter((name) => name.startsWith('worker'));
    const cpuPerItem = {
      run: per('run'),
      workers: workerNames.reduce((sum, name) => sum + per(name), 0),
      redis: per('redis'),
      server: per('server'),
    };
    const seconds = (to - from) / 1000;
    return { itemsPerSecond: items / seconds, seconds, cpuPerItem };
  } finally {
    for (const worker of started) await stopWorker(worker);
    await redis.stop();
    // The server's log of requests is not read: the next run starts with an empty one.
    server.requests.length = 0;
    rmSync(folder, { recursive: true, force: true });
  }
}

const CORES = cpus().length;

/** One table: 1, 2 and 4 workers at `perWorker` items each. */
async function table(perWorker: number, items: number): Promise<string[]> {
  const rows: string[] = [];
  let single = 0;
  for (const workers of WORKER_COUNTS) {
    const measured = await measure(workers, perWorker, items);
    const rate = measured.itemsPerSecond;
    if (workers === WORKER_COUNTS[0]) single = rate / workers;
    const ideal = (workers * perWorker) / ((2 * MODEL_MS) / 1000);
    const { run, workers: onWorkers, redis, server: model } = measured.cpuPerItem;
    const total = run + onWorkers + redis + model;
    const busy = (total * rate) / 1000 / CORES;
    const cells = [
      workers,
      rate.toFixed(1),
      ideal.toFixed(1),
      `${((rate / (workers * single)) * 100).toFixed(0)}%`,
      ...[run, onWorkers, redis, model, total].map((value) => value.toFixed(2)),
      `${(busy * 100).toFixed(0)}%`,
    ];
    rows.push(`| ${cells.join(' | ')} |`);
    process.stderr.write(`${perWorker} per worker, ${workers} workers: ${rows.at(-1)}\n`);
  }
  return [
    `${items} items, ${perWorker} items at once per worker (load average at the end ${loadavg()[0]?.toFixed(1)}):`,
    '',
    '| workers | items/s | ideal items/s | of linear | CPU ms/item: run process | workers | redis | model server | total | machine busy |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
  ];
}

const lines = [
  `### queue.ts — distributed run, 2 turns of ${MODEL_MS} ms each, compiled CLI, ${CORES} cores`,
  '',
  ...(await table(PER_WORKER, ITEMS)),
  ...(LOW_PER_WORKER > 0 ? await table(LOW_PER_WORKER, LOW_ITEMS) : []),
];
await server.close();
rmSync(stateHome, { recursive: true, force: true });
process.stdout.write(lines.join('\n'));
