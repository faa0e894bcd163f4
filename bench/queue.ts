/**
 * Distributed runs (issue 13): `sortie run --queue` over N items on a 200 ms model with 1, 2 and
 * 4 real `sortie worker` processes and a real redis-server, each worker running `PER_WORKER`
 * items at once and the task's `concurrency_limit` at workers × PER_WORKER. Throughput is items
 * per second between the first `iteration.started` and the task's end in the run's journal;
 * "of linear" is that throughput over (workers × the one-worker throughput).
 *
 *   node_modules/.bin/tsx bench/queue.ts [ITEMS=2000] [PER_WORKER=16]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScriptedModelServer } from '../src/testing/index.ts';
import { anthropicCallsSoFar } from '../test/actors/resume/large-result-fixture.ts';
import { journalOf, sortie } from '../test/e2e/cli-resume-harness.ts';
import { removeRedisDir, startRedis, startWorker, stopWorker } from '../test/e2e/queue-harness.ts';

// The CLI indexes every run under XDG_STATE_HOME (else ~/.local/state): the bench's runs go to
// an index of their own, never the user's.
const stateHome = mkdtempSync(join(tmpdir(), 'sortie-bench-state-'));
process.env.XDG_STATE_HOME = stateHome;

const ITEMS = Number(process.argv[2] ?? 2000);
const PER_WORKER = Number(process.argv[3] ?? 16);
const MODEL_MS = 200;

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

/** Items per second of one run with `workers` workers. */
async function measure(workers: number): Promise<number> {
  const redis = await startRedis();
  const folder = mkdtempSync(join(tmpdir(), 'sortie-bench-queue-'));
  writeFileSync(join(folder, 'main.hcl'), project(ITEMS, workers * PER_WORKER));
  const target = { stateDir: join(folder, '.state'), baseUrl: server.baseUrl('anthropic') };
  const started = [];
  // Workers and Redis are stopped however the run ends: a failed run must not leave them behind.
  try {
    for (let count = 0; count < workers; count++) {
      started.push(await startWorker(redis.url, target, { concurrency: PER_WORKER }));
    }
    const run = sortie(['run', folder, '--queue', redis.url], target);
    const code = await run.exited;
    const events = journalOf(target.stateDir, await run.runId);
    if (code !== 0) {
      const failed = events.filter((event) => event.type === 'iteration.failed').slice(0, 1);
      throw new Error(`the run exited with ${code}: ${JSON.stringify(failed)} ${run.stderr()}`);
    }
    const first = events.find((event) => event.type === 'iteration.started');
    const last = events.find((event) => event.type === 'task.succeeded');
    const seconds = (Date.parse(last?.time ?? '') - Date.parse(first?.time ?? '')) / 1000;
    return ITEMS / seconds;
  } finally {
    for (const worker of started) await stopWorker(worker);
    await redis.stop();
    removeRedisDir(redis);
    rmSync(folder, { recursive: true, force: true });
  }
}

const rows: string[] = [];
let single = 0;
for (const workers of [1, 2, 4]) {
  const rate = await measure(workers);
  if (workers === 1) single = rate;
  const ideal = (workers * PER_WORKER) / ((2 * MODEL_MS) / 1000);
  rows.push(
    `| ${workers} | ${rate.toFixed(1)} | ${ideal.toFixed(1)} | ${((rate / (workers * single)) * 100).toFixed(0)}% |`,
  );
  process.stderr.write(`${workers} workers: ${rate.toFixed(1)} items/s\n`);
}
await server.close();
rmSync(stateHome, { recursive: true, force: true });

process.stdout.write(
  [
    `### queue.ts — distributed run, ${ITEMS} items, 2 turns of ${MODEL_MS} ms each, ${PER_WORKER} items per worker`,
    '',
    '| workers | items/s | ideal items/s | of linear |',
    '|---|---|---|---|',
    ...rows,
    '',
  ].join('\n'),
);
