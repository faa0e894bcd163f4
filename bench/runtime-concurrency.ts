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
import { iterated, project, runMission } from './runtime-fixtures.ts';

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
  const ok = (): Promise<string> => Promise.resolve('{"status":"ok"}');
  const loopRun = () =>
    Promise.all(
      Array.from({ length: items }, (_, index) =>
        converse(sdk, `commander:each[${index}]`, prompt, counter, ok, 'task_complete'),
      ),
    );
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
