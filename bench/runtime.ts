/**
 * The runtime's own cost: CPU per model turn (events and journal on) against an in-process
 * zero-latency model and, through the real openai adapter, above a hand-written loop over the
 * same SDK and wire format; parallel-iteration throughput and memory (in a child process, so
 * its RSS is its own); 64 concurrent actors on a 200 ms model; the harness tokens of a plain
 * commander. Prints Markdown on stdout (see bench/run.ts). `tsx bench/runtime.ts`.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { ModelClientFactory, RunResult } from '../src/actors/contracts.ts';
import { startRun } from '../src/actors/start-run.ts';
import { loadProject } from '../src/config/index.ts';
import { resolveModel } from '../src/config/resolve-model.ts';
import type { Config } from '../src/config/types.ts';
import { openJournal } from '../src/journal/writer.ts';
import { createModelClient } from '../src/models/create-client.ts';
import type { Message, ModelRequest, ModelResponse, Part } from '../src/models/types.ts';
import type { MissionEvent } from '../src/runtime/events.ts';
import { harnessTokens } from '../src/runtime/prompts/index.ts';
import type { ScriptTurn } from '../src/testing/script.ts';
import { ScriptedModelServer } from '../src/testing/server.ts';

const self = fileURLToPath(import.meta.url);
const MODEL_BLOCK = `variable "base_url" {\n}\nmodel "main" {\n  provider = "openai"\n  api_key = "sk-bench-0123456789"\n  base_url = vars.base_url\n}\n`;

const PLAIN = `
agent "helper" {
  model       = models.main.gpt_4o
  personality = "You help with short tasks."
}
mission "plain" {
  commander {
    model = models.main.gpt_4o
  }
  agents = [agents.helper]
  task "work" {
    objective = "Do the work"
  }
}
`;

function iterated(items: number, limit: number): string {
  const rows = Array.from({ length: items }, (_, index) => `{ n = ${index} }`).join(',\n');
  return `
mission "many" {
  commander {
    model = models.main.gpt_4o
  }
  dataset "things" {
    schema = { n = number("N", true) }
    items = [${rows}]
  }
  task "each" {
    objective = "Handle \${item.n}"
    iterator {
      dataset = datasets.things
      parallel = true
      concurrency_limit = ${limit}
    }
  }
}
`;
}

async function project(
  hcl: string,
  baseUrl = 'http://127.0.0.1:1',
): Promise<{ config: Config; dir: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'sortie-bench-'));
  await writeFile(join(dir, 'main.hcl'), MODEL_BLOCK + hcl);
  const config = await loadProject(dir, { vars: { base_url: baseUrl }, env: {} });
  return { config, dir };
}

let callSerial = 0;
function callOf(name: string, args: Record<string, unknown>): Part {
  callSerial += 1;
  return { type: 'tool_call', id: `call_${callSerial}`, name, arguments: JSON.stringify(args) };
}

/** What the scripted actors answer, by actor and by how many replies they already gave. */
function nextParts(actor: string, replies: number): Part[] {
  if (actor.startsWith('agent:')) return [{ type: 'text', text: 'Done: the work is finished.' }];
  if (actor.includes('[')) {
    const steps = [
      callOf('set_subtasks', { subtasks: ['Handle it'] }),
      callOf('complete_subtask', {}),
      callOf('task_complete', { summary: 'handled' }),
    ];
    return [steps[Math.min(replies, 2)]!];
  }
  const steps = [
    callOf('set_subtasks', { subtasks: ['Ask the helper'] }),
    callOf('call_agent', { name: 'helper', task: 'do the work' }),
    callOf('complete_subtask', {}),
    callOf('task_complete', { summary: 'the helper did the work' }),
  ];
  return [steps[Math.min(replies, 3)]!];
}

/** An in-process model: answers at once (or after `delayMs`), logging when each call starts. */
function fakeClients(delayMs: number, starts?: number[]): ModelClientFactory {
  return (model) => ({
    model,
    async generate(request: ModelRequest): Promise<ModelResponse> {
      starts?.push(performance.now());
      // Zero latency still crosses the event loop, as any real response does: a client that
      // only resolves promises would starve timers and I/O (the journal's writes) for the run.
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      else await new Promise((resolve) => setImmediate(resolve));
      const replies = request.messages.filter((message) => message.role === 'assistant').length;
      return {
        message: { role: 'assistant', parts: nextParts(request.actor ?? '', replies) },
        stopReason: 'tool_use',
        usage: { input: 1500, output: 40, cacheRead: 1000, cacheWrite: 0, reasoning: 0 },
        model: model.apiName,
        warnings: [],
      };
    },
  });
}

async function runMission(
  config: Config,
  dir: string,
  mission: string,
  clients: ModelClientFactory,
  subscriber?: (event: MissionEvent) => void,
): Promise<RunResult> {
  const runId = `bench-${Math.random().toString(36).slice(2)}`;
  const journal = await openJournal(join(dir, '.sortie', 'runs', runId));
  const handle = startRun({
    config,
    mission,
    inputs: {},
    stateDir: join(dir, '.sortie'),
    runId,
    clients,
    subscribers: subscriber === undefined ? [journal.subscriber] : [journal.subscriber, subscriber],
  });
  const result = await handle.done;
  await journal.close();
  if (result.status !== 'succeeded')
    throw new Error(`bench run ${mission} ${result.status}: ${JSON.stringify(result.tasks[0])}`);
  return result;
}

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
  const child = spawn(process.execPath, ['--import', 'tsx', self, 'serve', String(runs)], {
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

/** Child mode (b): one parallel iteration; prints its figures as JSON. */
async function throughputChild(items: number, limit: number): Promise<void> {
  const { config, dir } = await project(iterated(items, limit));
  const checkpoints = new Set([items / 4, items / 2, items]);
  const rss: Record<number, number> = {};
  // Heap in use after a full GC (the child runs with --expose-gc): what the run retains.
  const heap: Record<number, number> = {};
  let done = 0;
  const started = performance.now();
  await runMission(config, dir, 'many', fakeClients(0), (event) => {
    if (event.type !== 'iteration.succeeded') return;
    done += 1;
    if (checkpoints.has(done)) {
      (globalThis as { gc?: () => void }).gc?.();
      rss[done] = process.memoryUsage().rss;
      heap[done] = process.memoryUsage().heapUsed;
    }
  });
  const seconds = (performance.now() - started) / 1000;
  await rm(dir, { recursive: true, force: true });
  process.stdout.write(
    JSON.stringify({ seconds, rss, heap, peak: process.resourceUsage().maxRSS * 1024 }),
  );
}

/** (c) `items` parallel items on a 200 ms model, 3 turns each: ideal = 3 × 200 ms. */
async function concurrency(items: number): Promise<{ wall: number; ideal: number }> {
  const { config, dir } = await project(iterated(items, items));
  // One warm-up run first: the figure is the runtime's steady state, not module compilation.
  await runMission(config, dir, 'many', fakeClients(200));
  const started = performance.now();
  await runMission(config, dir, 'many', fakeClients(200));
  const wall = performance.now() - started;
  await rm(dir, { recursive: true, force: true });
  return { wall, ideal: 600 };
}

const MB = 1024 * 1024;

async function main(): Promise<void> {
  const lines: string[] = ['### runtime', ''];
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
  const child = spawnSync(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', self, 'throughput', String(items), '64'],
    {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      maxBuffer: 1024 * 1024,
    },
  );
  if (child.status !== 0) throw new Error(`throughput child failed (${child.status})`);
  const figures = JSON.parse(child.stdout) as {
    seconds: number;
    rss: Record<string, number>;
    heap: Record<string, number>;
    peak: number;
  };
  const rssLine = Object.entries(figures.rss)
    .map(([count, bytes]) => `${count}: ${(bytes / MB).toFixed(0)} MB`)
    .join(', ');
  const heapLine = Object.entries(figures.heap)
    .map(([count, bytes]) => `${count}: ${(bytes / MB).toFixed(0)} MB`)
    .join(', ');
  lines.push(
    `- parallel iteration, ${items} items, concurrency_limit = 64, 3 turns per item: ${(items / figures.seconds).toFixed(0)} items/s (${figures.seconds.toFixed(2)} s; target ≥ 2,000); peak RSS ${(figures.peak / MB).toFixed(0)} MB (target ≤ 400); RSS after ${rssLine}; heap after GC ${heapLine}`,
  );

  const wait = await concurrency(64);
  lines.push(
    `- 64 parallel items on a 200 ms model, 3 turns each: ${wait.wall.toFixed(0)} ms wall, ideal ${wait.ideal} ms (ratio ${(wait.wall / wait.ideal).toFixed(3)}; target ≤ 1.10)`,
  );
  process.stdout.write(`${lines.join('\n')}\n`);
}

const mode = process.argv[2];
if (mode === 'serve') await serve(Number(process.argv[3]));
else if (mode === 'throughput')
  await throughputChild(Number(process.argv[3]), Number(process.argv[4]));
else await main();
