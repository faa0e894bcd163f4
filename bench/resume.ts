/**
 * Journal size and resume start with large tool results, through the compiled CLI: a parallel
 * task over `ITEMS` pages whose reader agent answers `PAGE_BYTES` bytes each (the answer is
 * the commander's `call_agent` result) is killed with SIGKILL at its `KILL_AT`th model request,
 * then resumed; measured are the journal's size (with its blobs) against the results' total,
 * and the time from starting `sortie resume` to its first model request (median of three
 * resumes of copies of the killed run), wall and CPU (the process's user + system time when
 * the request arrives, from /proc: the machine is shared, so wall time is noisy), beside the
 * same for a fresh `sortie run`. Prints Markdown on stdout (see bench/run.ts).
 *
 * `tsx bench/resume.ts [ITEMS] [PAGE_BYTES] [KILL_AT]` (defaults 40, 3,000,000, 200: about
 * 1,350 journaled events). `SORTIE_BENCH_ROOT=DIR` measures the sources of another checkout
 * (with this one's node_modules), for figures before a change.
 */
import { spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ScriptedModelServer } from '../src/testing/index.ts';
import { largeResultProject, respondToPages } from '../test/actors/resume/large-result-fixture.ts';
import { buildCli, cpuMsOf } from './built-cli.ts';

const HERE = dirname(dirname(fileURLToPath(import.meta.url)));
const ROOT = process.env.SORTIE_BENCH_ROOT ?? HERE;
const BUILT = buildCli('sortie-bench-resume', ROOT);
const ITEMS = Number(process.argv[2] ?? 40);
const PAGE_BYTES = Number(process.argv[3] ?? 3_000_000);
const KILL_AT = Number(process.argv[4] ?? 200);
const MB = 1024 * 1024;

let requests = 0;
let firstRequestAt: number | undefined;
/** CPU milliseconds the CLI process had used when its first request arrived. */
let firstRequestCpuMs: number | undefined;
let cliPid: number | undefined;
/** Kills the CLI at the request with this number (counted from 1), when set. */
let killAtRequest: { count: number; kill: () => void } | undefined;
const respond = respondToPages(PAGE_BYTES);
const server = await ScriptedModelServer.start({
  respond: (request) => {
    if (firstRequestAt === undefined) {
      firstRequestAt = performance.now();
      firstRequestCpuMs = cpuMsOf(cliPid);
    }
    requests += 1;
    if (killAtRequest !== undefined && requests >= killAtRequest.count) killAtRequest.kill();
    const turn = respond(request);
    // Megabyte bodies: keep none of them (the count of requests names tool calls).
    const recorded = server.requests.at(-1);
    if (recorded !== undefined) recorded.body = null;
    return turn;
  },
});

interface Finished {
  code: number | null;
  lines: number;
}

/**
 * Runs the compiled CLI with `--json` (stdout only counted); SIGKILL at the `atRequest`th model
 * request from now (1: the first). Requests, not output lines: the CLI runs ahead of a reader
 * of megabyte lines.
 */
function sortie(args: string[], stateDir: string, atRequest?: number): Promise<Finished> {
  const child = spawn(
    process.execPath,
    [
      join(BUILT, 'cli/main.js'),
      ...args,
      '--json',
      '--state-dir',
      stateDir,
      '--var',
      'api_key=sk-bench-resume',
      '--var',
      `base_url=${server.baseUrl('anthropic')}`,
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  requests = 0;
  firstRequestAt = undefined;
  firstRequestCpuMs = undefined;
  cliPid = child.pid;
  killAtRequest =
    atRequest === undefined ? undefined : { count: atRequest, kill: () => child.kill('SIGKILL') };
  let lines = 0;
  child.stdout.on('data', (chunk: Buffer) => {
    for (let index = chunk.indexOf(10); index !== -1; index = chunk.indexOf(10, index + 1)) {
      lines += 1;
    }
  });
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, lines })));
}

function journalEvents(runDir: string): number {
  const text = readFileSync(join(runDir, 'journal.jsonl'), 'utf8');
  return text.split('\n').filter((line) => line.endsWith('}')).length;
}

function sizeOf(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path).reduce((sum, name) => sum + sizeOf(join(path, name)), 0);
}

function runSizes(runDir: string): { journal: number; blobs: number } {
  return { journal: sizeOf(join(runDir, 'journal.jsonl')), blobs: sizeOf(join(runDir, 'blobs')) };
}

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

const mb = (bytes: number): string => `${(bytes / MB).toFixed(1)} MB`;

/** Wall and CPU milliseconds from starting the CLI to its first model request. */
interface Start {
  wallMs: number;
  cpuMs: number;
}

async function firstRequest(args: string[], stateDir: string): Promise<Start> {
  const started = performance.now();
  await sortie(args, stateDir, 1);
  const start = { wallMs: (firstRequestAt ?? NaN) - started, cpuMs: firstRequestCpuMs ?? NaN };
  // Parallel items send several requests at once: the ones after the first, sent before the
  // kill, arrive late and must not count as the next process's first.
  await new Promise((resolve) => setTimeout(resolve, 500));
  return start;
}

function startText(starts: Start[]): string {
  const wall = starts.map((start) => start.wallMs);
  const cpu = starts.map((start) => start.cpuMs);
  const list = (values: number[]): string => values.map((value) => value.toFixed(0)).join(', ');
  return `wall ${median(wall).toFixed(0)} ms [${list(wall)}], CPU ${median(cpu).toFixed(0)} ms [${list(cpu)}]`;
}

async function main(): Promise<void> {
  const project = mkdtempSync(join(tmpdir(), 'sortie-bench-resume-'));
  writeFileSync(join(project, 'main.hcl'), largeResultProject(ITEMS));
  const results = ITEMS * PAGE_BYTES;
  const lines = ['### resume.ts — large tool results: journal size and resume start', ''];

  // The whole run, uninterrupted: what the journal costs per byte of results.
  const whole = join(project, 'whole');
  const wholeStart = performance.now();
  const complete = await sortie(['run', project], whole);
  const wholeMs = performance.now() - wholeStart;
  const [wholeId] = readdirSync(join(whole, 'runs'));
  const wholeSizes = runSizes(join(whole, 'runs', wholeId ?? ''));
  rmSync(whole, { recursive: true, force: true });

  // Killed at its KILL_AT-th request, then resumed three times from copies.
  const killed = join(project, 'killed');
  await sortie(['run', project], killed, KILL_AT);
  const [runId = ''] = readdirSync(join(killed, 'runs'));
  const killedSizes = runSizes(join(killed, 'runs', runId));
  const killedEvents = journalEvents(join(killed, 'runs', runId));
  const resumes: Start[] = [];
  const runs: Start[] = [];
  for (let trial = 0; trial < 3; trial++) {
    const copy = join(project, `resume-${trial}`);
    cpSync(killed, copy, { recursive: true });
    resumes.push(await firstRequest(['resume', runId, project], copy));
    rmSync(copy, { recursive: true, force: true });
    const fresh = join(project, `run-${trial}`);
    runs.push(await firstRequest(['run', project], fresh));
    rmSync(fresh, { recursive: true, force: true });
  }
  const finish = await sortie(['resume', runId, project], killed);
  const finishedSizes = runSizes(join(killed, 'runs', runId));
  rmSync(project, { recursive: true, force: true });
  await server.close();

  const ratio = (sizes: { journal: number; blobs: number }): string =>
    `${((sizes.journal + sizes.blobs) / results).toFixed(2)}×`;
  lines.push(
    `${ITEMS} items, each agent answers ${mb(PAGE_BYTES)} (results in total ${mb(results)}); \`tsx bench/resume.ts ${ITEMS} ${PAGE_BYTES} ${KILL_AT}\``,
    '',
    '| measure | value |',
    '|---|---|',
    `| uninterrupted run: exit ${complete.code}, ${complete.lines} events, wall | ${(wholeMs / 1000).toFixed(1)} s |`,
    `| its journal + blobs (ratio to the results) | ${mb(wholeSizes.journal)} + ${mb(wholeSizes.blobs)} (${ratio(wholeSizes)}) |`,
    `| killed at request ${KILL_AT}: ${killedEvents} events journaled; journal + blobs | ${mb(killedSizes.journal)} + ${mb(killedSizes.blobs)} |`,
    `| \`sortie resume\` start → first model request (median of 3) | ${startText(resumes)} |`,
    `| \`sortie run\` start → first model request, for reference | ${startText(runs)} |`,
    `| resumed to the end: exit ${finish.code}; journal + blobs (ratio) | ${mb(finishedSizes.journal)} + ${mb(finishedSizes.blobs)} (${ratio(finishedSizes)}) |`,
  );
  process.stdout.write(`${lines.join('\n')}\n`);
}

await main();
