/**
 * sortie's CPU per model request above a hand-written `openai` SDK streaming loop (issue 12,
 * item 2). In one process, on the same scripted Responses server over real HTTP (loopback, in
 * a child process so its CPU is not counted), the same conversation runs both ways:
 * a commander plans, delegates to one agent that calls a TypeScript function tool K times and
 * answers, then completes its subtask and the task. (a) is a loop written by hand against the
 * SDK (one client, the tool run by hand); (b) is `runMission` of the library API with its
 * journal on, in two temporary state directories, one empty at the start and one holding 1,000
 * earlier run folders. Each round runs (a), (b) in one directory, (b) in the other and (a)
 * again (the directories' order swapped every round), so drift (JIT, GC, neighbours) hits all
 * alike, each side follows itself half the time, and the two directories differ only in their
 * earlier runs; CPU is `process.cpuUsage()` per run (the machine is shared, so
 * not wall time).
 *
 * `tsx bench/overhead.ts [runs] [K]`; measured in the compiled copy (bench/compiled-copy.ts).
 * `SORTIE_BENCH_LOOP_TRANSPORT=lean` gives the loop's SDK sortie's HTTP transport (see below).
 * Prints Markdown on stdout (see bench/run.ts).
 */
import { spawn, spawnSync } from 'node:child_process';
import { cp, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { sdkFetch } from '../src/base/http/index.ts';
import { openProject, runMission, type Project } from '../src/index.ts';
import type { ScriptTurn } from '../src/testing/script.ts';
import { ScriptedModelServer } from '../src/testing/server.ts';
import { toFunctionTool } from '../src/models/openai-responses/to-wire.ts';
import { buildCompiledCopy, compiledBench } from './compiled-copy.ts';
import { converse, type ActorPrompt } from './hand-loop.ts';
import { MODEL_BLOCK } from './runtime-fixtures.ts';
import { replayRunLayer } from './run-layer-replay.ts';
import type { MissionEvent } from '../src/base/events.ts';

const self = fileURLToPath(import.meta.url);
const compiled = self.endsWith('.js');
/**
 * `overhead.ts [runs] [calls]`, `serve <calls>`, `profile <side> [runs] [calls]`,
 * `setup [runs] [calls]`, `runlayer 0 [calls]`.
 */
const mode = process.argv[2];
const named = mode === 'profile' ? 1 : mode === 'setup' || mode === 'runlayer' ? 0 : -1;
const RUNS = Number(process.argv[3 + named] ?? 400);
const CALLS = Number(process.argv[4 + named] ?? 10);
const WARMUP = 30;
const EARLIER_RUNS = 1000;

/**
 * The `fetch` the hand-written loop's SDK client gets: its default (the global fetch), or with
 * `SORTIE_BENCH_LOOP_TRANSPORT=lean` sortie's HTTP transport, the one sortie's clients use, for
 * the like-for-like figure.
 */
function loopTransport(): { fetch?: typeof fetch } {
  const transport = process.env.SORTIE_BENCH_LOOP_TRANSPORT ?? 'default';
  if (transport === 'default') return {};
  if (transport === 'lean') return { fetch: sdkFetch };
  throw new Error(`SORTIE_BENCH_LOOP_TRANSPORT must be "lean" or "default", not "${transport}"`);
}

const COMMANDER_STEPS: ScriptTurn[] = [
  { toolCalls: [{ name: 'set_subtasks', arguments: { subtasks: ['Have the analyst look up'] } }] },
  {
    toolCalls: [
      { name: 'call_agent', arguments: { name: 'analyst', task: 'look up the figures' } },
    ],
  },
  { toolCalls: [{ name: 'complete_subtask', arguments: {} }] },
  { toolCalls: [{ name: 'task_complete', arguments: { summary: 'the figures are looked up' } }] },
];

type WireItem = Record<string, unknown>;

/** The server's answer: by actor and by how far its conversation got. */
function answerFor(actor: string | undefined, body: unknown): ScriptTurn {
  const input = ((body as { input?: WireItem[] }).input ?? []) as WireItem[];
  if (actor?.startsWith('agent:') === true) {
    const done = input.filter((item) => item.type === 'function_call_output').length;
    if (done >= CALLS) return { text: `Done: ${CALLS} figures looked up.` };
    return { toolCalls: [{ name: 'tools_lookup', arguments: { n: done } }] };
  }
  const calls = input.filter((item) => item.type === 'function_call').length;
  return COMMANDER_STEPS[Math.min(calls, COMMANDER_STEPS.length - 1)]!;
}

/** Child mode: the scripted server; prints its OpenAI base URL, stops when stdin ends. */
async function serve(): Promise<void> {
  const server = await ScriptedModelServer.start({
    respond: ({ actor, body }) => answerFor(actor, body),
  });
  process.stdout.write(`${server.baseUrl('openai')}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => void server.close().then(() => process.exit(0)));
}

const lookup = {
  name: 'lookup',
  description: 'Looks up figure number n.',
  input: {
    type: 'object' as const,
    properties: { n: { type: 'integer' } },
    required: ['n'],
  },
  run: (input: { n?: unknown }) => ({ n: input.n, value: Number(input.n) * 7 }),
};

const HCL = `
agent "analyst" {
  model       = models.main.gpt_4o
  personality = "You look up figures."
  tools       = [tools.lookup]
}
mission "overhead" {
  commander {
    model = models.main.gpt_4o
  }
  agents = [agents.analyst]
  task "work" {
    objective = "Look up the figures"
  }
}
`;

/**
 * The hand-written loop sends what sortie sends (system prompts, tool definitions, first
 * messages), taken from one sortie run's `model.request` and `message.appended` events: the
 * loop then pays for the same bytes, and the difference is the runtime's own work.
 */
async function sortiePrompts(
  project: Project,
  stateDir: string,
): Promise<Map<string, ActorPrompt>> {
  const prompts = new Map<string, ActorPrompt>();
  const run = runMission(project, {
    stateDir,
    onEvent: (event) => {
      if (event.type === 'model.request' && !prompts.has(event.actor)) {
        prompts.set(event.actor, {
          instructions: event.system ?? '',
          tools: (event.tools ?? []).map(toFunctionTool),
          task: '',
        });
      }
      if (event.type === 'message.appended' && event.message.role === 'user') {
        const prompt = prompts.get(event.conversation);
        const text = event.message.parts.find((part) => part.type === 'text');
        if (prompt !== undefined && prompt.task === '' && text?.type === 'text')
          prompt.task = text.text;
      }
    },
  });
  await run.result;
  return prompts;
}

const COMMANDER = 'commander:work';
const AGENT = 'agent:work/analyst';

/** (a) the hand-written loop: the same conversation, tools executed by hand. */
async function handRun(sdk: OpenAI, prompts: Map<string, ActorPrompt>): Promise<number> {
  const counter = { requests: 0 };
  const runAgent = (): Promise<string> =>
    converse(sdk, AGENT, prompts.get(AGENT)!, counter, async (_name, args) =>
      JSON.stringify(await lookup.run(JSON.parse(args) as { n?: unknown })),
    );
  await converse(
    sdk,
    COMMANDER,
    prompts.get(COMMANDER)!,
    counter,
    async (name) => {
      if (name !== 'call_agent') return '{"status":"ok"}';
      return JSON.stringify({ answer: await runAgent() });
    },
    'task_complete',
  );
  return counter.requests;
}

/** (b) sortie's mission through the library API, journal on. */
async function sortieRun(project: Project, stateDir: string): Promise<number> {
  let requests = 0;
  const run = runMission(project, {
    stateDir,
    onEvent: (event) => {
      if (event.type === 'model.request') requests += 1;
    },
  });
  const result = await run.result;
  if (result.status !== 'succeeded') throw new Error(`bench run ${result.status}`);
  return requests;
}

function cpuSince(before: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

const gc = (): void => (globalThis as { gc?: () => void }).gc?.();

/** Per-request CPU figures of one state directory, one value per measured round (sorted). */
interface Side {
  /** sortie − loop of the same round, per request. */
  above: number[];
  sortie: number[];
}

interface Rounds {
  loop: number[];
  empty: Side;
  crowded: Side;
  requests: number;
  /** Heap (after GC) kept per sortie run over the measured rounds. */
  heapKeptPerRun: number;
}

/**
 * The two orders of a round's four runs. Over the rounds each side follows a run of its own
 * code half the time and the other side's half the time (caches and branch predictors favour
 * a repeat), and each directory comes first in half the rounds.
 */
const ORDERS = [
  ['loop', 'empty', 'crowded', 'loop'],
  ['loop', 'crowded', 'empty', 'loop'],
] as const;

/**
 * `runs` rounds after the warm-up, each two runs of the loop and one sortie run in each state
 * directory: the two directories are measured under the same JIT state, heap and load, so
 * their difference is the earlier runs' alone.
 */
async function measure(
  project: Project,
  loop: () => Promise<number>,
  dirs: { empty: string; crowded: string },
  runs: number,
): Promise<Rounds> {
  const rounds: Rounds = {
    loop: [],
    empty: { above: [], sortie: [] },
    crowded: { above: [], sortie: [] },
    requests: 0,
    heapKeptPerRun: 0,
  };
  let heapBefore = 0;
  for (let round = 0; round < WARMUP + runs; round++) {
    if (round === WARMUP) {
      gc();
      heapBefore = process.memoryUsage().heapUsed;
    }
    const cpu = { loop: 0, empty: 0, crowded: 0 };
    const requests = { loop: 0, empty: 0, crowded: 0 };
    for (const side of ORDERS[round % ORDERS.length]!) {
      const before = process.cpuUsage();
      requests[side] = side === 'loop' ? await loop() : await sortieRun(project, dirs[side]);
      // The loop's figure is the mean of its two runs.
      cpu[side] += side === 'loop' ? cpuSince(before) / 2 : cpuSince(before);
    }
    if (requests.empty !== requests.loop || requests.crowded !== requests.loop)
      throw new Error(
        `requests differ: loop ${requests.loop}, sortie ${requests.empty} and ${requests.crowded}`,
      );
    rounds.requests = requests.loop;
    if (round < WARMUP) continue;
    rounds.loop.push(cpu.loop / requests.loop);
    for (const side of ['empty', 'crowded'] as const) {
      rounds[side].sortie.push(cpu[side] / requests.loop);
      rounds[side].above.push((cpu[side] - cpu.loop) / requests.loop);
    }
  }
  gc();
  rounds.heapKeptPerRun = (process.memoryUsage().heapUsed - heapBefore) / (2 * runs);
  for (const values of [
    rounds.loop,
    rounds.empty.above,
    rounds.empty.sortie,
    rounds.crowded.above,
    rounds.crowded.sortie,
  ])
    values.sort((a, b) => a - b);
  return rounds;
}

/** Fills a fresh state directory with `count` copies of one finished run's folder. */
async function earlierRuns(stateDir: string, count: number): Promise<string> {
  const runsDir = join(stateDir, 'runs');
  const [first] = await readdir(runsDir);
  const fresh = await mkdtemp(join(tmpdir(), 'sortie-bench-state-'));
  for (let index = 0; index < count; index++)
    await cp(join(runsDir, first!), join(fresh, 'runs', `earlier-${index}`), { recursive: true });
  return fresh;
}

const quantile = (sorted: number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
const ms = (value: number): string => `${value.toFixed(3)} ms`;

function row(label: string, side: Side, rounds: Rounds): string {
  return `| ${label} | ${ms(quantile(side.above, 0.5))} / ${ms(quantile(side.above, 0.95))} | ${ms(quantile(rounds.loop, 0.5))} | ${ms(quantile(side.sortie, 0.5))} | ${rounds.requests} |`;
}

/** The scripted server (a child process), the project and an empty state directory. */
async function setUp(): Promise<{
  project: Project;
  /** One run of the hand-written loop; resolves with its request count. */
  loop: () => Promise<number>;
  stateDir: string;
  stop: () => Promise<void>;
}> {
  const child = spawn(process.execPath, [self, 'serve', String(CALLS)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const baseUrl = await new Promise<string>((resolve) => {
    createInterface({ input: child.stdout }).once('line', resolve);
  });
  const dir = await mkdtemp(join(tmpdir(), 'sortie-bench-overhead-'));
  await writeFile(join(dir, 'main.hcl'), MODEL_BLOCK + HCL);
  const project = await openProject(dir, {
    vars: { base_url: baseUrl },
    env: {},
    tools: [lookup],
  });
  if (!project.ok) throw new Error(JSON.stringify(project.diagnostics));
  const sdk = new OpenAI({
    apiKey: 'sk-bench-0123456789',
    baseURL: baseUrl,
    maxRetries: 0,
    ...loopTransport(),
  });
  const stop = async (): Promise<void> => {
    child.stdin.end();
    await rm(dir, { recursive: true, force: true });
  };
  const stateDir = join(dir, '.sortie');
  const prompts = await sortiePrompts(project, stateDir);
  return { project, loop: () => handRun(sdk, prompts), stateDir, stop };
}

async function main(): Promise<void> {
  const { project, loop, stateDir, stop } = await setUp();
  // One finished run to copy, then the crowded directory beside the empty one.
  await sortieRun(project, stateDir);
  const crowdedDir = await earlierRuns(stateDir, EARLIER_RUNS);
  await rm(join(stateDir, 'runs'), { recursive: true, force: true });
  const rounds = await measure(project, loop, { empty: stateDir, crowded: crowdedDir }, RUNS);
  await stop();
  await rm(crowdedDir, { recursive: true, force: true });
  const load = loadavg()
    .map((value) => value.toFixed(2))
    .join(', ');
  process.stdout.write(
    [
      `### overhead.ts — CPU per model request above a hand-written SDK loop (issue 12)`,
      '',
      `One commander delegating to one agent that calls a function tool ${CALLS} times; OpenAI Responses, streaming, scripted server over loopback HTTP; sortie through \`runMission\` with its journal on; the loop's SDK on ${process.env.SORTIE_BENCH_LOOP_TRANSPORT === 'lean' ? "sortie's HTTP transport" : 'its default fetch'}; compiled build. ${RUNS} rounds after ${WARMUP} warm-up, each two loop runs around one sortie run in each state directory (loop, empty, crowded, loop; then loop, crowded, empty, loop). Load average at the end: ${load}.`,
      '',
      '| state directory | above the loop p50 / p95 | loop p50 | sortie p50 | requests per run |',
      '|---|---|---|---|---|',
      row('empty at start', rounds.empty, rounds),
      row(`${EARLIER_RUNS} earlier run folders`, rounds.crowded, rounds),
      '',
      `Heap kept per sortie run (after GC): ${(rounds.heapKeptPerRun / 1024).toFixed(1)} KB. Peak RSS of the process: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB.`,
      '',
    ].join('\n'),
  );
}

/**
 * `node --cpu-prof <compiled overhead.js> profile sortie|loop [runs]`: one side's runs alone, so
 * profiles of the two can be compared.
 */
async function profileRuns(side: string, runs: number): Promise<void> {
  const { project, loop, stateDir, stop } = await setUp();
  const before = process.cpuUsage();
  let requests = 0;
  for (let run = 0; run < runs; run++)
    requests += side === 'loop' ? await loop() : await sortieRun(project, stateDir);
  const cpu = cpuSince(before);
  process.stderr.write(
    `${side}: ${runs} runs, ${(cpu / runs).toFixed(3)} ms CPU per run, ${(cpu / requests).toFixed(3)} ms per request\n`,
  );
  await stop();
}

/**
 * `node <compiled overhead.js> setup [runs] [calls]`: sortie's runs alone, each split by CPU
 * into set-up (`runMission` called → its first `model.request`), turns, and teardown (the last
 * `model.response` → the result, journal closed); medians per run. The windows are the run's
 * own work only: the runs are sequential and the model server is another process.
 */
async function setupRuns(runs: number): Promise<void> {
  const { project, stateDir, stop } = await setUp();
  const parts = { setUp: [] as number[], turns: [] as number[], tearDown: [] as number[] };
  for (let run = 0; run < WARMUP + runs; run++) {
    const start = process.cpuUsage();
    let firstRequest: NodeJS.CpuUsage | undefined;
    let lastResponse = start;
    const handle = runMission(project, {
      stateDir,
      onEvent: (event) => {
        if (event.type === 'model.request') firstRequest ??= process.cpuUsage();
        if (event.type === 'model.response') lastResponse = process.cpuUsage();
      },
    });
    if ((await handle.result).status !== 'succeeded') throw new Error('bench run failed');
    const end = process.cpuUsage();
    // CPU milliseconds from the run's start to `usage`.
    const at = (usage: NodeJS.CpuUsage | undefined): number =>
      usage === undefined ? NaN : (usage.user + usage.system - start.user - start.system) / 1000;
    if (run < WARMUP) continue;
    parts.setUp.push(at(firstRequest));
    parts.turns.push(at(lastResponse) - at(firstRequest));
    parts.tearDown.push(at(end) - at(lastResponse));
  }
  const median = (values: number[]): string =>
    ms(
      quantile(
        [...values].sort((a, b) => a - b),
        0.5,
      ),
    );
  process.stderr.write(
    `setup: ${runs} runs, ${CALLS} tool calls, medians: set-up ${median(parts.setUp)}, turns ${median(parts.turns)}, teardown ${median(parts.tearDown)}\n`,
  );
  await stop();
}

/**
 * `node <compiled overhead.js> runlayer 0 [calls]`: one sortie run's events and tool calls
 * replayed through the run layer alone (bench/run-layer-replay.ts).
 */
async function runLayerRuns(): Promise<void> {
  const { project, stateDir, stop } = await setUp();
  const events: MissionEvent[] = [];
  const handle = runMission(project, { stateDir, onEvent: (event) => events.push(event) });
  if ((await handle.result).status !== 'succeeded') throw new Error('bench run failed');
  await stop();
  const requests = events.filter((event) => event.type === 'model.request').length;
  const figures = await replayRunLayer(events, lookup, CALLS, requests);
  process.stderr.write(`runlayer: ${events.length} events, ${requests} requests; ${figures}\n`);
}

if (mode === 'serve') await serve();
else if (mode === 'runlayer') await runLayerRuns();
else if (mode === 'profile') await profileRuns(process.argv[3] ?? 'sortie', RUNS);
else if (mode === 'setup') await setupRuns(RUNS);
else if (compiled) await main();
else {
  buildCompiledCopy();
  const run = spawnSync(
    process.execPath,
    ['--expose-gc', compiledBench('overhead'), ...process.argv.slice(2)],
    {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  if (run.status !== 0) throw new Error(`compiled overhead bench failed (${run.status})`);
  process.stdout.write(run.stdout);
}
