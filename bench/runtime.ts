/**
 * The runtime's own cost: CPU per model turn (events and journal on) against an in-process
 * zero-latency model and, through the real openai adapter, above a hand-written loop over the
 * same SDK and wire format; parallel-iteration throughput and memory (in a child process, so
 * its RSS is its own); 64 concurrent actors on a 200 ms model; the harness tokens of a plain
 * commander. Prints Markdown on stdout (see bench/run.ts). `tsx bench/runtime.ts`.
 *
 * Started under tsx, it compiles the sources and itself (bench/tsconfig.runtime-build.json,
 * into node_modules/.cache/sortie-bench-runtime) and measures in that compiled copy, as
 * `bin/sortie.js` runs: under tsx every module carries its loader thread, source maps and
 * esbuild's name helpers (≈ 90 MB of RSS and some CPU per closure). The throughput is also
 * measured once under tsx, for comparison with figures taken that way before.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { getHeapSpaceStatistics } from 'node:v8';
import { resolveModel } from '../src/config/resolve-model.ts';
import { createModelClient } from '../src/models/create-client.ts';
import type { Message } from '../src/models/model-types.ts';
import { harnessTokens } from '../src/runtime/prompts/index.ts';
import type { ScriptTurn } from '../src/testing/script.ts';
import { ScriptedModelServer } from '../src/testing/server.ts';
import { buildCompiledCopy, compiledBench } from './compiled-copy.ts';
import {
  concurrencyAgainstLoop,
  loopWithoutNetwork,
  median,
  serveDelayed,
  type RunCost,
} from './runtime-concurrency.ts';
import {
  PLAIN,
  fakeClients,
  iterated,
  iteratedFromInput,
  project,
  runMission,
  thingsInput,
} from './runtime-fixtures.ts';

const self = fileURLToPath(import.meta.url);
/** True in the compiled copy: children run as plain node, without tsx. */
const compiled = self.endsWith('.js');
/** The node arguments that run this script in `mode` (same flavour as this process). */
const selfArgs = (...args: string[]): string[] =>
  compiled ? [self, ...args] : ['--import', 'tsx', self, ...args];

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}
const ms = (value: number): string => `${value.toFixed(3)} ms`;

/** (a) Time between one model answer and the next request: all of the runtime's work per turn. */
async function perTurnZeroLatency(
  runs: number,
): Promise<{ p50: number; p95: number; turns: number }> {
  const { config, dir } = await project(PLAIN);
  const gaps: number[] = [];
  for (let run = 0; run < runs; run++) {
    const starts: number[] = [];
    await runMission(config, dir, 'plain', fakeClients(0, starts));
    // The first request includes the mission's start-up; only turn-to-turn gaps are per turn.
    if (run >= 10)
      for (let index = 1; index < starts.length; index++)
        gaps.push(starts[index]! - starts[index - 1]!);
  }
  await rm(dir, { recursive: true, force: true });
  gaps.sort((a, b) => a - b);
  return { p50: quantile(gaps, 0.5), p95: quantile(gaps, 0.95), turns: gaps.length };
}

/** Child mode: a scripted server for `runs` plain missions (5 turns each), URL on stdout. */
async function serve(runs: number): Promise<void> {
  const turns: ScriptTurn[] = [];
  for (let run = 0; run < runs; run++) {
    turns.push(
      { toolCalls: [{ name: 'set_subtasks', arguments: { subtasks: ['Ask the helper'] } }] },
      { toolCalls: [{ name: 'call_agent', arguments: { name: 'helper', task: 'do the work' } }] },
      { text: 'Done: the work is finished.' },
      { toolCalls: [{ name: 'complete_subtask', arguments: {} }] },
      { toolCalls: [{ name: 'task_complete', arguments: { summary: 'the helper did the work' } }] },
    );
  }
  const server = await ScriptedModelServer.start({ turns: [...turns, ...turns] });
  process.stdout.write(`${server.baseUrl('openai')}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => void server.close().then(() => process.exit(0)));
}

/** (a) CPU per turn through the real openai adapter, minus a hand-written loop's. */
async function aboveHandLoop(runs: number): Promise<{ sortie: number; loop: number }> {
  const child = spawn(process.execPath, selfArgs('serve', String(runs)), {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const baseUrl = await new Promise<string>((resolve) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
  });
  const { config, dir } = await project(PLAIN, baseUrl);
  const turns = runs * 5;
  const before = process.cpuUsage();
  for (let run = 0; run < runs; run++)
    await runMission(config, dir, 'plain', (model, hooks) => createModelClient(model, hooks));
  const used = process.cpuUsage(before);
  const sortie = (used.user + used.system) / 1000 / turns;

  // The hand-written loop: the same SDK client, the same number of requests of a similar shape.
  const client = createModelClient(resolveModel(config, { config: 'main', key: 'gpt_4o' }));
  const loopBefore = process.cpuUsage();
  for (let run = 0; run < runs; run++) {
    const messages: Message[] = [{ role: 'user', parts: [{ type: 'text', text: 'Do the work' }] }];
    for (let turn = 0; turn < 5; turn++) {
      const response = await client.generate({
        system: 'You are the commander.',
        messages:
          turn === 2
            ? [{ role: 'user', parts: [{ type: 'text', text: 'do the work' }] }]
            : messages,
        tools: [],
        signal: new AbortController().signal,
      });
      if (turn === 2) continue;
      messages.push(response.message);
      const calls = response.message.parts.filter((part) => part.type === 'tool_call');
      messages.push({
        role: 'user',
        parts: calls.map((part) => ({
          type: 'tool_result',
          callId: part.id,
          name: part.name,
          content: '{"status":"ok"}',
          isError: false,
        })),
      });
    }
  }
  const loopUsed = process.cpuUsage(loopBefore);
  child.stdin!.end();
  await rm(dir, { recursive: true, force: true });
  return { sortie, loop: (loopUsed.user + loopUsed.system) / 1000 / turns };
}

/** RSS by kind (anonymous memory, mapped files) in MB, from /proc/self/status (Linux only). */
function residentParts(): Record<string, number> {
  try {
    const status = readFileSync('/proc/self/status', 'utf8');
    const parts: Record<string, number> = {};
    for (const match of status.matchAll(/^(VmRSS|VmHWM|RssAnon|RssFile|RssShmem):\s+(\d+) kB$/gm))
      parts[match[1]!] = Math.round(Number(match[2]) / 1024);
    return parts;
  } catch {
    return {};
  }
}

/** Child mode (b): one parallel iteration; prints its figures as JSON. */
async function throughputChild(items: number, limit: number, dependent: boolean): Promise<void> {
  // With a dependent task (the scale figure), the items come as an input, as big datasets do.
  const { config, dir } = await project(
    dependent ? iteratedFromInput(limit, true) : iterated(items, limit),
  );
  const inputs = dependent ? thingsInput(items) : {};
  const checkpoints = new Set([items / 4, items / 2, items]);
  const rss: Record<number, number> = {};
  // Heap in use after a full GC (the child runs with --expose-gc): what the run retains.
  const heap: Record<number, number> = {};
  // Where RSS above the heap goes: V8's reserved heap, buffers outside it, and the rest.
  const detail: Record<
    number,
    NodeJS.MemoryUsage & { spaces: Record<string, number[]>; status: Record<string, number> }
  > = {};
  let done = 0;
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  await runMission(
    config,
    dir,
    'many',
    fakeClients(0),
    (event) => {
      if (event.type !== 'iteration.succeeded') return;
      done += 1;
      if (checkpoints.has(done)) {
        (globalThis as { gc?: () => void }).gc?.();
        rss[done] = process.memoryUsage().rss;
        const usage = process.memoryUsage();
        // Per V8 space: [size, used] in MB (what heapTotal holds beyond the heap in use).
        const spaces = Object.fromEntries(
          getHeapSpaceStatistics().map((space) => [
            space.space_name,
            [space.space_size, space.space_used_size].map((bytes) => Math.round(bytes / MB)),
          ]),
        );
        detail[done] = { ...usage, spaces, status: residentParts() };
        heap[done] = usage.heapUsed;
      }
    },
    inputs,
  );
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuPerItemMs = (cpu.user + cpu.system) / 1000 / items;
  await rm(dir, { recursive: true, force: true });
  process.stdout.write(
    JSON.stringify({
      seconds,
      cpuPerItemMs,
      rss,
      heap,
      detail,
      peak: process.resourceUsage().maxRSS * 1024,
    }),
  );
}

/** (c) `items` parallel items on a 200 ms model, 3 turns each: ideal = 3 × 200 ms. */
async function concurrency(
  items: number,
  runs = 3,
): Promise<{ walls: number[]; ideal: number; cpu: number[] }> {
  const { config, dir } = await project(iterated(items, items));
  // One warm-up run first: the figure is the runtime's steady state, not module compilation.
  // Then the median of three runs: one run is at the mercy of the noisy machine.
  await runMission(config, dir, 'many', fakeClients(200));
  const walls: number[] = [];
  const cpu: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    await runMission(config, dir, 'many', fakeClients(200));
    walls.push(performance.now() - started);
    const used = process.cpuUsage(cpuBefore);
    cpu.push((used.user + used.system) / 1000);
  }
  await rm(dir, { recursive: true, force: true });
  return { walls, ideal: 600, cpu };
}

const MB = 1024 * 1024;

interface ThroughputFigures {
  seconds: number;
  /** Process CPU (all threads) per item: steadier than items/s on a shared machine. */
  cpuPerItemMs: number;
  rss: Record<string, number>;
  heap: Record<string, number>;
  peak: number;
}

/** (b) in a child process of its own (its RSS is the run's), started by `args`. */
function throughput(
  items: number,
  args: (...args: string[]) => string[],
  dependent = false,
): ThroughputFigures {
  const child = spawnSync(
    process.execPath,
    ['--expose-gc', ...args('throughput', String(items), '64', dependent ? 'dependent' : '')],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1024 * 1024 },
  );
  if (child.status !== 0) throw new Error(`throughput child failed (${child.status})`);
  return JSON.parse(child.stdout) as ThroughputFigures;
}

function checkpoints(values: Record<string, number>): string {
  return Object.entries(values)
    .map(([count, bytes]) => `${count}: ${(bytes / MB).toFixed(0)} MB`)
    .join(', ');
}

/** Under tsx: measure in the compiled copy, then the throughput once more under tsx. */
function viaCompiledCopy(): void {
  buildCompiledCopy();
  const run = spawnSync(process.execPath, [compiledBench('runtime'), ...process.argv.slice(2)], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (run.status !== 0) throw new Error(`compiled runtime bench failed (${run.status})`);
  const items = Number(process.argv[2] ?? 10_000);
  const underTsx = throughput(items, selfArgs);
  process.stdout.write(
    `${run.stdout}- the same ${items}-item iteration under tsx (how it was measured before): ${(items / underTsx.seconds).toFixed(0)} items/s (CPU ${underTsx.cpuPerItemMs.toFixed(3)} ms per item), peak RSS ${(underTsx.peak / MB).toFixed(0)} MB, heap after GC ${checkpoints(underTsx.heap)}\n`,
  );
}

async function main(): Promise<void> {
  const lines: string[] = [
    '### runtime',
    '',
    'Measured in the compiled build (plain node, as `bin/sortie.js` runs).',
    '',
  ];
  const plain = await project(PLAIN);
  lines.push(
    `- harness tokens of a plain commander (system prompt + tool schemas): ${harnessTokens(plain.config, 'plain', 'work')} (target ≤ 1,500)`,
  );
  await rm(plain.dir, { recursive: true, force: true });

  const perTurn = await perTurnZeroLatency(210);
  lines.push(
    `- runtime CPU per model turn, zero-latency in-process model, events and journal on (${perTurn.turns} turns): p50 ${ms(perTurn.p50)}, p95 ${ms(perTurn.p95)} (target p50 ≤ 0.3 ms, p95 ≤ 2.5 ms)`,
  );
  const above = await aboveHandLoop(200);
  lines.push(
    `- CPU per turn through the openai adapter and scripted server: sortie ${ms(above.sortie)}, hand-written SDK loop ${ms(above.loop)}, above the loop ${ms(above.sortie - above.loop)} (ratio ${(above.sortie / above.loop).toFixed(2)}×)`,
  );

  const items = Number(process.argv[2] ?? 10_000);
  const figures = throughput(items, selfArgs);
  lines.push(
    `- parallel iteration, ${items} items, concurrency_limit = 64, 3 turns per item: ${(items / figures.seconds).toFixed(0)} items/s (${figures.seconds.toFixed(2)} s, CPU ${figures.cpuPerItemMs.toFixed(3)} ms per item; target ≥ 2,000); peak RSS ${(figures.peak / MB).toFixed(0)} MB (target ≤ 400); RSS after ${checkpoints(figures.rss)}; heap after GC ${checkpoints(figures.heap)}`,
  );

  const wait = await concurrency(64);
  const wall = [...wait.walls].sort((a, b) => a - b)[1] ?? NaN;
  lines.push(
    `- 64 parallel items on a 200 ms model, 3 turns each: ${wall.toFixed(0)} ms wall (median of ${wait.walls.map((value) => value.toFixed(0)).join(', ')}), ideal ${wait.ideal} ms (ratio ${(wall / wait.ideal).toFixed(3)}; target ≤ 1.10)`,
  );
  process.stdout.write(`${lines.join('\n')}\n`);
}

/**
 * `scale [items]`: the issue-12 scale figures alone, in the compiled copy: `items` parallel
 * items (100,000 by default) with a dependent task, so every finished item's commander can be
 * asked; then 1,024 concurrent items on a 200 ms model.
 */
async function scale(items: number): Promise<void> {
  const figures = throughput(items, selfArgs, true);
  process.stdout.write(
    `- parallel iteration with a dependent task, ${items} items passed as an input (bind_to), concurrency_limit = 64, 3 turns per item: ${(items / figures.seconds).toFixed(0)} items/s (${figures.seconds.toFixed(2)} s, CPU ${figures.cpuPerItemMs.toFixed(3)} ms per item); peak RSS ${(figures.peak / MB).toFixed(0)} MB (target ≤ 400); RSS after ${checkpoints(figures.rss)}; heap after GC ${checkpoints(figures.heap)}\n`,
  );
  const wait = await concurrency(1024);
  const wall = [...wait.walls].sort((a, b) => a - b)[1] ?? NaN;
  const cpu = [...wait.cpu].sort((a, b) => a - b)[1] ?? NaN;
  process.stdout.write(
    `- 1024 parallel items on a 200 ms in-process model, 3 turns each: ${wall.toFixed(0)} ms wall (median of ${wait.walls.map((value) => value.toFixed(0)).join(', ')}), ideal ${wait.ideal} ms (ratio ${(wall / wait.ideal).toFixed(3)}; target ≤ 1.10); CPU per run (median) ${cpu.toFixed(0)} ms\n`,
  );
  await loopWithoutNetworkLine(1024);
  await concurrencyOverHttp(1024);
}

/**
 * The hand-written SDK loop on a model answering from memory after 200 ms (no network): the
 * floor for any runtime that talks to its model through the `openai` SDK on this machine.
 */
async function loopWithoutNetworkLine(items: number, runs = 3): Promise<void> {
  const costs = await loopWithoutNetwork(items, runs);
  const wall = median(costs.map((cost) => cost.wall));
  const cpu = median(costs.map((cost) => cost.cpu));
  const walls = costs.map((cost) => cost.wall.toFixed(0)).join(', ');
  process.stdout.write(
    `- the same ${items} × 3 turns by the hand-written openai SDK loop on a model answering from memory after 200 ms (no network, no runtime), load average ${loadavg()[0]!.toFixed(1)}: ${wall.toFixed(0)} ms wall (median of ${walls}; ${(wall / 600).toFixed(2)}× the 600 ms ideal), CPU ${cpu.toFixed(0)} ms per run (${(cpu / (3 * items)).toFixed(3)} ms per request)\n`,
  );
}

/** `items` items against the hand-written loop on one scripted server with a 200 ms delay. */
async function concurrencyOverHttp(items: number, runs = 3): Promise<void> {
  const result = await concurrencyAgainstLoop(items, runs, selfArgs('serve-delayed', '200'));
  const line = (side: string, costs: RunCost[]): string => {
    const wall = median(costs.map((cost) => cost.wall));
    const cpu = median(costs.map((cost) => cost.cpu));
    const walls = costs.map((cost) => cost.wall.toFixed(0)).join(', ');
    return `${side} ${wall.toFixed(0)} ms wall (median of ${walls}; ${(wall / 600).toFixed(2)}× the 600 ms ideal), CPU ${cpu.toFixed(0)} ms per run (${(cpu / (3 * items)).toFixed(3)} ms per request)`;
  };
  process.stdout.write(
    `- ${items} parallel items × 3 turns on a 200 ms scripted server over HTTP (openai SDK, ${result.requests} requests a run), load average ${loadavg()[0]!.toFixed(1)}: ${line('hand-written SDK loop', result.loop)}; ${line('sortie', result.sortie)}\n`,
  );
}

const mode = process.argv[2];
if (mode === 'serve') await serve(Number(process.argv[3]));
else if (mode === 'serve-delayed') await serveDelayed(Number(process.argv[3]));
else if (mode === 'concurrency' && compiled) {
  await loopWithoutNetworkLine(Number(process.argv[3] ?? 1024));
  await concurrencyOverHttp(Number(process.argv[3] ?? 1024));
} else if (mode === 'throughput')
  await throughputChild(
    Number(process.argv[3]),
    Number(process.argv[4]),
    process.argv[5] === 'dependent',
  );
else if (mode === 'scale' && compiled) await scale(Number(process.argv[3] ?? 100_000));
else if (mode === 'scale' || mode === 'concurrency') {
  buildCompiledCopy();
  const run = spawnSync(process.execPath, [compiledBench('runtime'), ...process.argv.slice(2)], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  process.exitCode = run.status ?? 1;
} else if (compiled) await main();
else viaCompiledCopy();
