/**
 * `items` concurrent items on a 200 ms model over real HTTP, against a hand-written `openai`
 * SDK loop doing the same `items` × 3-turn conversations at the same concurrency on the same
 * scripted server (issue 12 item 3). The ideal (3 × 200 ms) assumes no CPU at all; a
 * run cannot end before its main thread has done its CPU, so the loop's figure is what one
 * thread of this machine can do, and sortie's distance from it is the runtime's own cost.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import OpenAI from 'openai';
import type { MissionEvent } from '../src/base/events.ts';
import { toFunctionTool } from '../src/models/openai-responses/to-wire.ts';
import { defaultModelClients } from '../src/run/run-services.ts';
import type { ScriptTurn } from '../src/testing/script.ts';
import { ScriptedModelServer } from '../src/testing/server.ts';
import { converse, type ActorPrompt } from './hand-loop.ts';
import { fakeClients, iterated, project, runMission } from './runtime-fixtures.ts';

/** An item commander's three turns: plan, finish the subtask, complete the task. */
const ITEM_STEPS: ScriptTurn[] = [
  { toolCalls: [{ name: 'set_subtasks', arguments: { subtasks: ['Handle it'] } }] },
  { toolCalls: [{ name: 'complete_subtask', arguments: {} }] },
  { toolCalls: [{ name: 'task_complete', arguments: { summary: 'handled' } }] },
];

/** Child mode: a scripted server answering every item's turns after `delayMs`; URL on stdout. */
export async function serveDelayed(delayMs: number): Promise<void> {
  const server = await ScriptedModelServer.start({
    respond: ({ body }) => {
      const input = (body as { input?: Array<{ type?: string }> }).input ?? [];
      const calls = input.filter((item) => item.type === 'function_call').length;
      return { ...ITEM_STEPS[Math.min(calls, ITEM_STEPS.length - 1)]!, delayMs };
    },
  });
  // 1,024 pooled connections on a loaded machine: the default 5 s keep-alive closes some just
  // as a client reuses them ("other side closed"); the benchmark keeps them for its whole run.
  const http = (server as unknown as { server: { keepAliveTimeout: number } }).server;
  http.keepAliveTimeout = 10 * 60_000;
  process.stdout.write(`${server.baseUrl('openai')}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => void server.close().then(() => process.exit(0)));
}

/**
 * The three streamed answers of an item's turns, as the scripted server sends them (taken once
 * from an in-process server, which is closed before anything is measured).
 */
async function recordedAnswers(): Promise<string[]> {
  const server = await ScriptedModelServer.start({
    respond: ({ body }) => {
      const input = (body as { input?: Array<{ type?: string }> }).input ?? [];
      const calls = input.filter((item) => item.type === 'function_call').length;
      return ITEM_STEPS[Math.min(calls, ITEM_STEPS.length - 1)]!;
    },
  });
  const answers: string[] = [];
  try {
    for (let calls = 0; calls < ITEM_STEPS.length; calls++) {
      const input = [
        { role: 'user', content: 'Handle it' },
        ...Array.from({ length: calls }, (_, index) => ({
          type: 'function_call',
          call_id: `call_${index}`,
          name: 'set_subtasks',
          arguments: '{}',
        })),
      ];
      const response = await fetch(`${server.baseUrl('openai')}/responses`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer sk-bench' },
        body: JSON.stringify({ model: 'gpt-4o', input, stream: true }),
      });
      answers.push(await response.text());
    }
  } finally {
    await server.close();
  }
  return answers;
}

/**
 * A `fetch` for the SDK that answers every request from memory after `delayMs`: a model with no
 * network in between, so what is measured is the SDK and the loop around it.
 */
function inMemoryFetch(answers: string[], delayMs: number): typeof fetch {
  return async (_url, init) => {
    const body = JSON.parse(String(init?.body)) as { input?: Array<{ type?: string }> };
    const calls = (body.input ?? []).filter((item) => item.type === 'function_call').length;
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    return new Response(answers[Math.min(calls, answers.length - 1)], {
      headers: { 'content-type': 'text/event-stream' },
    });
  };
}

/**
 * The hand-written `openai` SDK loop (`items` conversations of 3 turns at once, the system
 * prompt, tools and task sortie's item commander sends) against a model answering from memory
 * after 200 ms: no network, no runtime, no journal. Its distance from the 600 ms ideal is what
 * the SDK alone costs at this concurrency on this machine. A warm-up run, then `runs` runs.
 */
export async function loopWithoutNetwork(items: number, runs: number): Promise<RunCost[]> {
  const { config, dir } = await project(iterated(items, items));
  const prompt: ActorPrompt = { instructions: '', tools: [], task: '' };
  await runMission(config, dir, 'many', fakeClients(0), capturePrompt(prompt));
  await rm(dir, { recursive: true, force: true });
  const sdk = new OpenAI({
    apiKey: 'sk-bench-0123456789',
    baseURL: 'http://127.0.0.1:1/v1',
    maxRetries: 0,
    fetch: inMemoryFetch(await recordedAnswers(), 200),
  });
  const counter = { requests: 0 };
  const loopRun = handLoopRun(sdk, prompt, items, counter);
  await loopRun();
  const costs: RunCost[] = [];
  for (let run = 0; run < runs; run++) costs.push(await timed(loopRun));
  return costs;
}

/** One run of the hand-written loop: `items` item conversations at once, counted in `counter`. */
function handLoopRun(
  sdk: OpenAI,
  prompt: ActorPrompt,
  items: number,
  counter: { requests: number },
): () => Promise<string[]> {
  const ok = (): Promise<string> => Promise.resolve('{"status":"ok"}');
  return () =>
    Promise.all(
      Array.from({ length: items }, (_, index) =>
        converse(sdk, `commander:each[${index}]`, prompt, counter, ok, 'task_complete'),
      ),
    );
}

/** Wall and CPU (user + system, ms) of one run of either side. */
export interface RunCost {
  wall: number;
  cpu: number;
}

async function timed(run: () => Promise<unknown>): Promise<RunCost> {
  const started = performance.now();
  const before = process.cpuUsage();
  await run();
  const used = process.cpuUsage(before);
  return { wall: performance.now() - started, cpu: (used.user + used.system) / 1000 };
}

/** What an item commander sends (system prompt, tools, first message), taken from sortie's run. */
function capturePrompt(prompt: ActorPrompt): (event: MissionEvent) => void {
  const actor = 'commander:each[0]';
  return (event) => {
    if (event.type === 'model.request' && event.actor === actor && prompt.instructions === '') {
      prompt.instructions = event.system ?? '';
      prompt.tools = (event.tools ?? []).map(toFunctionTool);
    }
    if (event.type === 'message.appended' && event.conversation === actor && prompt.task === '') {
      const text = event.message.parts.find((part) => part.type === 'text');
      if (event.message.role === 'user' && text?.type === 'text') prompt.task = text.text;
    }
  };
}

async function startServer(args: string[]): Promise<{ child: ChildProcess; baseUrl: string }> {
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const baseUrl = await new Promise<string>((resolve) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
  });
  return { child, baseUrl };
}

/**
 * Sortie's mission (`items` parallel items, concurrency_limit = items, journal on, the real
 * openai adapter) and the hand-written loop, each warmed up once, then `runs` runs of each,
 * alternating which goes first; the server runs in a child process started by `serverArgs`.
 */
export async function concurrencyAgainstLoop(
  items: number,
  runs: number,
  serverArgs: string[],
): Promise<{ sortie: RunCost[]; loop: RunCost[]; requests: number }> {
  const { child, baseUrl } = await startServer(serverArgs);
  const { config, dir } = await project(iterated(items, items), baseUrl);
  const prompt: ActorPrompt = { instructions: '', tools: [], task: '' };
  const sortieRun = (subscriber?: (event: MissionEvent) => void) =>
    runMission(config, dir, 'many', defaultModelClients, subscriber);
  const sdk = new OpenAI({ apiKey: 'sk-bench-0123456789', baseURL: baseUrl });
  const counter = { requests: 0 };
  const loopRun = handLoopRun(sdk, prompt, items, counter);
  await sortieRun(capturePrompt(prompt));
  await loopRun();
  const sortie: RunCost[] = [];
  const loop: RunCost[] = [];
  for (let run = 0; run < runs; run++) {
    if (run % 2 === 0) loop.push(await timed(loopRun));
    sortie.push(await timed(sortieRun));
    if (run % 2 === 1) loop.push(await timed(loopRun));
  }
  child.stdin!.end();
  await rm(dir, { recursive: true, force: true });
  return { sortie, loop, requests: counter.requests / (runs + 1) };
}

/** The median of `values`. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}
