/**
 * What the runtime benchmark runs: its HCL projects, the in-process model that answers at
 * once (or after a delay), and a mission run with the journal open.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunResult } from '../src/actors/contracts.ts';
import type { ModelClientFactory } from '../src/models/create-client.ts';
import { startRun } from '../src/run/start-run.ts';
import { loadProject } from '../src/config/index.ts';
import type { Config } from '../src/config/config-types.ts';
import { openJournal } from '../src/journal/writer.ts';
import type { ModelRequest, ModelResponse, Part } from '../src/models/model-types.ts';
import type { MissionEvent } from '../src/base/events.ts';

export const MODEL_BLOCK = `variable "base_url" {\n}\nmodel "main" {\n  provider = "openai"\n  api_key = "sk-bench-0123456789"\n  base_url = vars.base_url\n}\n`;

/** A plain task: a commander and one agent (5 model turns per mission). */
export const PLAIN = `
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

/** Mission "many": `datasetBlocks` declare dataset "things", which task "each" iterates. */
function iterationMission(datasetBlocks: string, limit: number, dependent: boolean): string {
  return `
mission "many" {
  commander {
    model = models.main.gpt_4o
  }
${datasetBlocks}
  task "each" {
    objective = "Handle \${item.n}"
    iterator {
      dataset = datasets.things
      parallel = true
      concurrency_limit = ${limit}
    }
  }${dependent ? AFTER_TASK : ''}
}
`;
}

/**
 * A parallel iteration over `items` generated items at `concurrency_limit = limit`; with
 * `dependent`, a task "after" depends on it, so each finished item's commander can be asked.
 */
export function iterated(items: number, limit: number, dependent = false): string {
  const rows = Array.from({ length: items }, (_, index) => `{ n = ${index} }`).join(',\n');
  const dataset = `  dataset "things" {\n    schema = { n = number("N", true) }\n    items = [${rows}]\n  }`;
  return iterationMission(dataset, limit, dependent);
}

/**
 * The same iteration with its items passed as a mission input (`bind_to`), as a big dataset
 * arrives in practice: the items are data handed to the run, never HCL text to parse.
 */
export function iteratedFromInput(limit: number, dependent = false): string {
  const blocks = `  inputs = {\n    things = list(object({ n = number("N", true) }), "Things", { default = [] })\n  }\n  dataset "things" {\n    bind_to = inputs.things\n  }`;
  return iterationMission(blocks, limit, dependent);
}

/** `items` generated items for `iteratedFromInput`. */
export function thingsInput(items: number): Record<string, unknown> {
  return { things: Array.from({ length: items }, (_, index) => ({ n: index })) };
}

/** A task after the iteration: its commander may ask any finished item's commander. */
const AFTER_TASK = `
  task "after" {
    objective = "Sum up"
    depends_on = [tasks.each]
  }`;

/** Writes `hcl` (after the model block) into a fresh directory and loads it. */
export async function project(
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
  if (actor.includes('[') || actor === 'commander:after') {
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
export function fakeClients(delayMs: number, starts?: number[]): ModelClientFactory {
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

/** Runs a mission with the journal open; throws unless it succeeded. */
export async function runMission(
  config: Config,
  dir: string,
  mission: string,
  clients: ModelClientFactory,
  subscriber?: (event: MissionEvent) => void,
  inputs: Record<string, unknown> = {},
): Promise<RunResult> {
  const runId = `bench-${Math.random().toString(36).slice(2)}`;
  const journal = await openJournal(join(dir, '.sortie', 'runs', runId));
  const handle = startRun({
    config,
    mission,
    inputs,
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
