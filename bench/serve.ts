/**
 * `sortie serve` under load (issue 26): the compiled CLI serving a mission with a webhook,
 * `max_parallel = 4` and a scripted model answering each request after 50 ms (two requests a
 * run), and POSTS webhook posts sent evenly within SECONDS: each leaves at its time whatever is
 * still unanswered (an open load, as independent senders make it), so a slow server shows in
 * the latency, not in a late schedule. Checked:
 * every post answered 202 or 429; each 202 run finished exactly once and succeeded (its
 * journal: one `run.started`, one `run.finished`; the API's list of succeeded runs; the
 * server's log), no run the server did not answer for, no run id answered twice, two model
 * requests a run. Told: the answers, the post latency, the runs' throughput and the server's
 * peak RSS (VmHWM of its /proc status once every run is done).
 *
 *   node_modules/.bin/tsx bench/serve.ts [POSTS=1000] [SECONDS=10]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI_ENV, ROOT } from '../test/e2e/cli-child.ts';
import { journalOf } from '../test/e2e/cli-resume-harness.ts';
import { buildCli } from './built-cli.ts';
import { oneTaskProject, twoTurnModel } from './one-task-mission.ts';

// The CLI indexes every run under XDG_STATE_HOME: the bench's runs go to an index of their own.
const stateHome = mkdtempSync(join(tmpdir(), 'sortie-bench-state-'));
process.env.XDG_STATE_HOME = stateHome;

const POSTS = Number(process.argv[2] ?? 1000);
const SECONDS = Number(process.argv[3] ?? 10);
const MODEL_MS = 50;
const MAX_PARALLEL = 4;
/** A run not finished this long after the server's last line is reported as lost. */
const QUIET_LIMIT_MS = 60_000;
const CLI = join(buildCli('sortie-bench-serve'), 'cli/main.js');

const PROJECT = oneTaskProject('hook', `  max_parallel = ${MAX_PARALLEL}\n  trigger {\n  }`);

const model = await twoTurnModel(MODEL_MS);

const folder = mkdtempSync(join(tmpdir(), 'sortie-bench-serve-'));
const stateDir = join(folder, '.state');
writeFileSync(join(folder, 'main.hcl'), PROJECT);
const serveArgs = ['serve', folder, '--port', '0', '--state-dir', stateDir];
const vars = ['--var', 'api_key=sk-bench-serve', '--var', `base_url=${model.baseUrl('openai')}`];
const server = spawn(process.execPath, [CLI, ...serveArgs, ...vars], {
  cwd: ROOT,
  env: { ...process.env, ...CLI_ENV, SORTIE_RUN_SOURCES: undefined },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const lines: string[] = [];
let lineWaiter: (() => void) | undefined;
let pending = '';
server.stdout.on('data', (chunk: Buffer) => {
  pending += chunk.toString();
  const complete = pending.split('\n');
  pending = complete.pop() ?? '';
  lines.push(...complete);
  lineWaiter?.();
});

/** Resolves true once `check` holds for the server's log, false after QUIET_LIMIT_MS silent. */
async function untilLog(check: () => boolean): Promise<boolean> {
  while (!check()) {
    let timer: NodeJS.Timeout | undefined;
    const spoke = await new Promise<boolean>((resolve) => {
      lineWaiter = () => resolve(true);
      timer = setTimeout(() => resolve(false), QUIET_LIMIT_MS);
    });
    clearTimeout(timer);
    if (!spoke) return false;
  }
  return true;
}

await untilLog(() => lines.some((line) => line.startsWith('sortie serve listening on ')));
const url = /listening on (\S+)/.exec(lines.find((line) => line.includes('listening')) ?? '')?.[1];

/** One post's answer and how long it took. */
interface Posted {
  status: number;
  runId: string | undefined;
  ms: number;
}

/** Posts answered with no HTTP status, by the network error's code (a reset, a refusal). */
const unanswered = new Map<string, number>();

async function post(n: number): Promise<Posted> {
  const started = performance.now();
  try {
    const response = await fetch(`${url}/webhooks/hook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ n }),
    });
    const body = (await response.json()) as { run_id?: string };
    return { status: response.status, runId: body.run_id, ms: performance.now() - started };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? String(error);
    unanswered.set(cause, (unanswered.get(cause) ?? 0) + 1);
    return { status: 0, runId: undefined, ms: performance.now() - started };
  }
}

// Post n leaves at n × SECONDS / POSTS seconds; `sent in` is when the last one left.
const begun = performance.now();
let lastSent = begun;
const answers = await Promise.all(
  Array.from({ length: POSTS }, async (_, n) => {
    const wait = begun + (n * SECONDS * 1000) / POSTS - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    lastSent = Math.max(lastSent, performance.now());
    return post(n);
  }),
);
const postedSeconds = (lastSent - begun) / 1000;
const answeredSeconds = (performance.now() - begun) / 1000;

const accepted = answers.filter((answer) => answer.status === 202);
const refused = answers.filter((answer) => answer.status === 429);
const other = answers.filter((answer) => answer.status !== 202 && answer.status !== 429);
const ids = new Set(accepted.map((answer) => answer.runId ?? ''));
const ended = (): number =>
  lines.filter((line) => /^run \S+ (succeeded|failed|cancelled|could not run)/.test(line)).length;
const drained = await untilLog(() => ended() >= ids.size);
const drainedSeconds = (performance.now() - begun) / 1000;

const problems: string[] = [];
if (!drained) problems.push(`${ids.size - ended()} runs did not end`);
const statuses = new Set(other.map((answer) => answer.status).filter((status) => status > 0));
if (statuses.size > 0) problems.push(`posts answered ${[...statuses].join(', ')}`);
for (const [cause, count] of unanswered) problems.push(`${count} posts got no answer (${cause})`);
if (ids.size !== accepted.length) problems.push('a run id was answered twice');
// Each accepted run: one session that succeeded, from its journal; no folder for any other run.
let finishedOnce = 0;
for (const id of ids) {
  const events = journalOf(stateDir, id);
  const starts = events.filter((event) => event.type === 'run.started').length;
  const ends = events.filter((event) => event.type === 'run.finished');
  if (starts === 1 && ends.length === 1 && ends[0]?.outcome === 'succeeded') finishedOnce++;
  else problems.push(`run ${id}: ${starts} starts, ${ends.length} ends`);
}
const folders = readdirSync(join(stateDir, 'runs'));
const strangers = folders.filter((id) => !ids.has(id));
if (strangers.length > 0) problems.push(`${strangers.length} runs nobody was answered for`);
const listed = (await (await fetch(`${url}/api/runs?mission=hook&status=succeeded`)).json()) as {
  runs: unknown[];
};
if (listed.runs.length !== ids.size) problems.push(`the API lists ${listed.runs.length} succeeded`);
const startLines = lines.filter((line) => /^run \S+ started /.test(line)).length;
if (startLines !== ids.size) problems.push(`${startLines} run start lines`);
if (model.requests.length !== 2 * ids.size) {
  problems.push(`${model.requests.length} model requests for ${ids.size} runs`);
}

const status = readFileSync(`/proc/${server.pid}/status`, 'utf8');
const peakMb = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1]) / 1024;
const load = loadavg()
  .map((value) => value.toFixed(1))
  .join(' / ');
server.kill('SIGTERM');
await new Promise((resolve) => server.on('exit', resolve));
await model.close();
rmSync(folder, { recursive: true, force: true });
rmSync(stateHome, { recursive: true, force: true });

const latencies = answers.map((answer) => answer.ms).sort((left, right) => left - right);
const quantile = (q: number): string =>
  (latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN).toFixed(1);
const report = [
  `### serve.ts — ${POSTS} webhook posts within ${SECONDS} s, max_parallel ${MAX_PARALLEL}, ${MODEL_MS} ms model, compiled CLI, ${cpus().length} cores`,
  '',
  '| posts | sent in | all answered after | 202 | 429 | other | 202 runs finished once | problems | post latency p50 / p95 / max | all runs done after | runs/s | server peak RSS | load 1 / 5 / 15 min |',
  '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  `| ${POSTS} | ${postedSeconds.toFixed(1)} s | ${answeredSeconds.toFixed(1)} s | ${accepted.length} | ${refused.length} | ${other.length} | ${finishedOnce} of ${ids.size} | ${problems.length === 0 ? 'none' : problems.slice(0, 3).join('; ')} | ${quantile(0.5)} / ${quantile(0.95)} / ${latencies.at(-1)?.toFixed(1)} ms | ${drainedSeconds.toFixed(1)} s | ${(ids.size / drainedSeconds).toFixed(1)} | ${peakMb.toFixed(0)} MB | ${load} |`,
  '',
];
process.stdout.write(report.join('\n'));
if (problems.length > 0) process.exitCode = 1;
