/**
 * The models layer's own CPU per request (issue 12): sortie's client for a model (adapter with
 * its retry policy, as a run gets it from `createModelClient`: wire conversion, deadlines,
 * stream folding, from-wire, usage) against a loop written by hand on the same `openai` SDK
 * (bench/hand-loop.ts), both holding the same growing agent conversation (a tool call per
 * request, `CALLS` calls, then the answer) with the scripted server, which runs in a child
 * process so its CPU is not counted. Conversations alternate loop / sortie and sortie / loop so
 * drift hits both alike. Prints Markdown on stdout (see bench/run.ts).
 * `tsx bench/models.ts [conversations]`; `node <compiled models.js> …` runs it without tsx.
 * `SORTIE_BENCH_LOOP_TRANSPORT=lean` gives the loop's SDK sortie's HTTP transport (see below).
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import type { ResponseInputItem } from 'openai/resources/responses/responses';
import { sdkFetch } from '../src/base/http/index.ts';
import { createModelClient } from '../src/models/create-client.ts';
import { toFunctionTool } from '../src/models/openai-responses/to-wire.ts';
import type { Message, ResolvedModel, ToolDefinition } from '../src/models/model-types.ts';
import type { ScriptTurn } from '../src/testing/script.ts';
import { ScriptedModelServer } from '../src/testing/server.ts';
import { streamTurn, type ActorPrompt } from './hand-loop.ts';

const WARMUP = 30;
const CALLS = 10;
const conversations = Number(process.argv[2] ?? 300);

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

/** An agent's reply: a call of `lookup` until `CALLS` results are in, then the answer. */
function agentReply(body: unknown): ScriptTurn {
  const input = ((body as { input?: Array<{ type?: string }> }).input ?? []) as Array<{
    type?: string;
  }>;
  const done = input.filter((item) => item.type === 'function_call_output').length;
  if (done >= CALLS) return { text: `Done: ${CALLS} figures looked up.` };
  return { toolCalls: [{ name: 'lookup', arguments: { n: done } }] };
}

/** Child mode: the scripted server; prints its URL, stops when stdin ends. */
async function serve(): Promise<void> {
  const server = await ScriptedModelServer.start({ respond: ({ body }) => agentReply(body) });
  process.stdout.write(`${server.url}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => void server.close().then(() => process.exit(0)));
}

const SYSTEM = 'You look up figures. '.repeat(40);
const TASK = 'Look up the ten figures and add them up.';
const TOOLS: ToolDefinition[] = Array.from({ length: 6 }, (_, index) => ({
  name: index === 0 ? 'lookup' : `tool_${index}`,
  description: 'Looks up figure number n.',
  parameters: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
}));

/** (a) the hand-written loop: output items pushed back as they came, tools run by hand. */
async function handConversation(sdk: OpenAI, prompt: ActorPrompt): Promise<number> {
  const input: ResponseInputItem[] = [{ role: 'user', content: prompt.task }];
  for (let requests = 1; ; requests++) {
    const output = await streamTurn(sdk, 'agent:bench', prompt, input);
    input.push(...(output as ResponseInputItem[]));
    const calls = output.filter((item) => item.type === 'function_call');
    if (calls.length === 0) return requests;
    for (const call of calls) {
      const { n } = JSON.parse(call.arguments) as { n: number };
      input.push({ type: 'function_call_output', call_id: call.call_id, output: `${n * 7}` });
    }
  }
}

/** (b) sortie's client: a conversation of sortie messages, as an agent session keeps it. */
async function sortieConversation(client: ReturnType<typeof createModelClient>): Promise<number> {
  let messages: Message[] = [{ role: 'user', parts: [{ type: 'text', text: TASK }] }];
  const signal = new AbortController().signal;
  for (let requests = 1; ; requests++) {
    const response = await client.generate({
      system: SYSTEM,
      messages,
      tools: TOOLS,
      actor: 'agent:bench',
      turn: requests,
      signal,
      onDelta: () => {},
    });
    messages = [...messages, response.message];
    const calls = response.message.parts.filter((part) => part.type === 'tool_call');
    if (calls.length === 0) return requests;
    const results = calls.map((call) => ({
      type: 'tool_result' as const,
      callId: call.id,
      name: call.name,
      content: `${(JSON.parse(call.arguments) as { n: number }).n * 7}`,
      isError: false,
    }));
    messages = [...messages, { role: 'user', parts: results }];
  }
}

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))]!;
}

function cpuMilliseconds(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

async function startChildServer(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(
    process.execPath,
    [...process.execArgv, fileURLToPath(import.meta.url), '--serve'],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout });
  const url = await new Promise<string>((resolve) => lines.once('line', resolve));
  return { url, stop: () => child.stdin.end() };
}

interface Samples {
  /** CPU per request of the hand-written loop, one value per conversation. */
  loop: number[];
  /** CPU per request of sortie's client. */
  sortie: number[];
  /** sortie − loop per request, per conversation pair. */
  above: number[];
  requests: number;
}

async function measure(): Promise<Samples> {
  const server = await startChildServer();
  const model: ResolvedModel = {
    provider: 'openai',
    config: 'main',
    key: 'gpt_4o',
    apiName: 'gpt-4o',
    baseUrl: `${server.url}/v1`,
    apiKey: 'sk-bench-models',
    promptCaching: true,
    reasoningCapable: false,
  };
  const client = createModelClient(model);
  const sdk = new OpenAI({
    apiKey: 'sk-bench-models',
    baseURL: `${server.url}/v1`,
    maxRetries: 0,
    ...loopTransport(),
  });
  const prompt: ActorPrompt = {
    instructions: SYSTEM,
    tools: TOOLS.map(toFunctionTool),
    task: TASK,
  };
  const samples: Samples = { loop: [], sortie: [], above: [], requests: 0 };
  for (let round = 0; round < WARMUP + conversations; round++) {
    let loopCpu = 0;
    let sortieCpu = 0;
    for (const side of round % 2 === 0 ? ['loop', 'sortie'] : ['sortie', 'loop']) {
      const before = process.cpuUsage();
      if (side === 'loop') {
        samples.requests = await handConversation(sdk, prompt);
        loopCpu = cpuMilliseconds(before);
      } else {
        const requests = await sortieConversation(client);
        sortieCpu = cpuMilliseconds(before);
        if (requests !== samples.requests) throw new Error(`requests differ: ${requests}`);
      }
    }
    if (round < WARMUP) continue;
    samples.loop.push(loopCpu / samples.requests);
    samples.sortie.push(sortieCpu / samples.requests);
    samples.above.push((sortieCpu - loopCpu) / samples.requests);
  }
  server.stop();
  for (const values of [samples.loop, samples.sortie, samples.above])
    values.sort((left, right) => left - right);
  return samples;
}

async function main(): Promise<void> {
  const { loop, sortie, above, requests } = await measure();
  const us = (milliseconds: number): string => `${(milliseconds * 1000).toFixed(0)} µs`;
  const p50 = (values: number[]): number => percentile(values, 0.5);
  process.stdout.write(
    [
      '### models.ts — the models layer per request above a hand-written SDK loop',
      '',
      `OpenAI Responses, streaming, real SDK, scripted server in a child process; an agent conversation of ${requests} requests (${CALLS} tool calls, then the answer), ${conversations} conversation pairs after ${WARMUP} warm-up, interleaved; the loop's SDK on ${process.env.SORTIE_BENCH_LOOP_TRANSPORT === 'lean' ? "sortie's HTTP transport" : 'its default fetch'}.`,
      '',
      '| measure | p50 | p95 |',
      '|---|---|---|',
      `| hand-written loop, CPU per request | ${us(p50(loop))} | ${us(percentile(loop, 0.95))} |`,
      `| sortie's client (\`createModelClient\`), CPU per request | ${us(p50(sortie))} | ${us(percentile(sortie, 0.95))} |`,
      `| above the loop, per pair | ${us(p50(above))} | ${us(percentile(above, 0.95))} |`,
      `| sortie / loop (p50s) | ${(p50(sortie) / p50(loop)).toFixed(3)} | |`,
      '',
    ].join('\n'),
  );
}

if (process.argv[2] === '--serve') await serve();
else await main();
