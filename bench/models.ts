/**
 * The model adapters' own CPU per turn: the real `openai` SDK and sortie's converters talking
 * to the scripted model server, which runs in a child process so its CPU is not counted.
 * Prints Markdown on stdout (see bench/run.ts). `tsx bench/models.ts [turns]`.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { createOpenAIResponsesClient } from '../src/models/openai-responses/client.ts';
import { fromResponse } from '../src/models/openai-responses/from-wire.ts';
import { toResponsesRequest } from '../src/models/openai-responses/to-wire.ts';
import type { Message, ModelRequest, ResolvedModel } from '../src/models/model-types.ts';
import { openaiProtocol } from '../src/testing/protocols/openai.ts';
import type { ScriptTurn } from '../src/testing/script.ts';
import { ScriptedModelServer } from '../src/testing/server.ts';

const WARMUP = 200;
const turnCount = Number(process.argv[2] ?? 2000);

/** A typical agent turn: a sentence of text and one tool call. */
const TURN: ScriptTurn = {
  text: 'Looking up the figures for the second quarter now.',
  toolCalls: [
    { name: 'query_task_output', arguments: { task: 'collect', query: 'revenue by region' } },
  ],
  usage: { input: 1800, cacheRead: 1200, output: 60 },
};

/** Child mode: serve `count` turns and print the URL. */
async function serve(count: number): Promise<void> {
  const server = await ScriptedModelServer.start({
    turns: Array.from({ length: count }, () => TURN),
  });
  process.stdout.write(`${server.url}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => void server.close().then(() => process.exit(0)));
}

/** A ten-message conversation with five tools, as an agent a few turns in sends. */
function benchRequest(): ModelRequest {
  const messages: Message[] = [
    {
      role: 'user',
      parts: [{ type: 'text', text: 'Summarise Q2 revenue by region. '.repeat(20) }],
    },
  ];
  for (let step = 0; step < 4; step++) {
    messages.push({
      role: 'assistant',
      parts: [
        {
          type: 'tool_call',
          id: `call_${step}`,
          name: 'query_task_output',
          arguments: '{"task":"collect"}',
        },
      ],
    });
    messages.push({
      role: 'user',
      parts: [
        {
          type: 'tool_result',
          callId: `call_${step}`,
          name: 'query_task_output',
          content: '{"rows":[1,2,3]}'.repeat(30),
          isError: false,
        },
      ],
    });
  }
  const tools = Array.from({ length: 5 }, (_, index) => ({
    name: `tool_${index}`,
    description: 'A tool the agent may call.',
    parameters: {
      type: 'object',
      properties: { query: { type: 'string' }, limit: { type: 'integer' } },
      required: ['query'],
    },
  }));
  return {
    system: 'You are an analyst. '.repeat(40),
    messages,
    tools,
    actor: 'agent:analyst',
    onDelta: () => {},
  };
}

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))]!;
}

function cpuMilliseconds(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

async function startChildServer(count: number): Promise<{ url: string; stop: () => void }> {
  const child = spawn(
    process.execPath,
    [...process.execArgv, fileURLToPath(import.meta.url), '--serve', String(count)],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const lines = createInterface({ input: child.stdout });
  const url = await new Promise<string>((resolve) => lines.once('line', resolve));
  return { url, stop: () => child.stdin.end() };
}

interface TurnSamples {
  /** A hand-written loop over the same SDK and wire format: the floor. */
  baseline: number[];
  /** sortie's adapter (conversion, deadlines, stream folding, error mapping). */
  adapter: number[];
  /** adapter − baseline of the same turn pair. */
  difference: number[];
}

/**
 * CPU per turn, server excluded, alternating the baseline and the adapter turn by turn so
 * drift (JIT, GC, a noisy neighbour) hits both alike.
 */
async function measureTurns(): Promise<TurnSamples> {
  const server = await startChildServer(2 * (WARMUP + turnCount));
  const model: ResolvedModel = {
    provider: 'openai',
    config: 'openai',
    key: 'gpt_4_1',
    apiName: 'gpt-4.1',
    baseUrl: `${server.url}/v1`,
    apiKey: 'sk-bench',
    promptCaching: true,
    reasoningCapable: false,
  };
  const client = createOpenAIResponsesClient(model);
  const sdk = new OpenAI({ apiKey: 'sk-bench', baseURL: `${server.url}/v1`, maxRetries: 0 });
  const request = benchRequest();
  // The baseline sends the body the adapter would send, built once: it converts nothing.
  const body = toResponsesRequest(model, request);
  const samples: TurnSamples = { baseline: [], adapter: [], difference: [] };
  for (let turn = 0; turn < WARMUP + turnCount; turn++) {
    let before = process.cpuUsage();
    const stream = await sdk.responses.create(body, {
      headers: { 'x-sortie-actor': 'agent:analyst' },
    });
    for await (const event of stream) void event;
    const baseline = cpuMilliseconds(before);
    before = process.cpuUsage();
    await client.generate(request);
    const adapter = cpuMilliseconds(before);
    if (turn < WARMUP) continue;
    samples.baseline.push(baseline);
    samples.adapter.push(adapter);
    samples.difference.push(adapter - baseline);
  }
  server.stop();
  samples.baseline.sort((left, right) => left - right);
  samples.adapter.sort((left, right) => left - right);
  samples.difference.sort((left, right) => left - right);
  return samples;
}

/** Wall time of the pure converters alone (request build + response conversion). */
function measureConverters(): number {
  const model: ResolvedModel = {
    provider: 'openai',
    config: 'o',
    key: 'k',
    apiName: 'gpt-4.1',
    promptCaching: true,
    reasoningCapable: false,
  };
  const request = benchRequest();
  const wire = openaiProtocol.reply(TURN, { turnIndex: 0, model: 'gpt-4.1' }) as Parameters<
    typeof fromResponse
  >[0];
  const rounds = 20_000;
  for (let round = 0; round < 1000; round++) fromResponse(wire, 'openai', 'gpt-4.1');
  const start = process.hrtime.bigint();
  for (let round = 0; round < rounds; round++) {
    JSON.stringify(toResponsesRequest(model, request));
    fromResponse(wire, 'openai', 'gpt-4.1');
  }
  return Number(process.hrtime.bigint() - start) / 1e6 / rounds;
}

async function main(): Promise<void> {
  const { baseline, adapter, difference } = await measureTurns();
  const converters = measureConverters();
  const p50 = percentile(adapter, 0.5);
  const baseP50 = percentile(baseline, 0.5);
  const format = (milliseconds: number): string => `${milliseconds.toFixed(3)} ms`;
  process.stdout.write(
    [
      '### models.ts — adapter CPU per turn (OpenAI Responses, streaming, real SDK)',
      '',
      `| measure | value |`,
      `|---|---|`,
      `| turns measured, each way | ${adapter.length} (after ${WARMUP} warm-up) |`,
      `| hand-written SDK loop, CPU per turn p50 / p95 | ${format(baseP50)} / ${format(percentile(baseline, 0.95))} |`,
      `| sortie adapter, CPU per turn p50 / p95 | ${format(p50)} / ${format(percentile(adapter, 0.95))} |`,
      `| adapter's own CPU per turn: p50 of adapter − baseline / median of per-turn differences | ${format(p50 - baseP50)} / ${format(percentile(difference, 0.5))} |`,
      `| converters alone (build request JSON + convert response), mean | ${format(converters)} |`,
      '',
    ].join('\n'),
  );
}

if (process.argv[2] === '--serve') await serve(Number(process.argv[3]));
else await main();
