import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ModelClientFactory } from '../../src/models/create-client.ts';
import { newRunId, startRun } from '../../src/run/start-run.ts';
import { loadProject } from '../../src/config/index.ts';
import { UsageError } from '../../src/base/errors.ts';
import type { Message, ModelRequest, ModelResponse } from '../../src/models/model-types.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';

let dir: string | undefined;
async function project(hcl: string, vars: Record<string, string> = {}) {
  dir = await temporaryDirectory('start');
  await writeFile(join(dir, 'main.hcl'), hcl);
  return loadProject(dir, { vars, env: {} });
}

const HELLO = `
variable "openai_api_key" {
  secret = true
  description = "OpenAI key"
}
model "openai" {
  provider = "openai"
  api_key = vars.openai_api_key
}
mission "hello" {
  commander {
    model = models.openai.gpt_4o_mini
  }
  inputs = {
    name = string("Who to greet", true)
    tone = string("How to sound", { default = "warm" })
  }
  task "greet" {
    objective = "Greet \${inputs.name}"
  }
}`;

function failIfCalled(): ModelClientFactory {
  return () => {
    throw new Error('no model may be called');
  };
}

describe('startRun checks before any model call', () => {
  it('rejects an unknown mission, listing the missions', async () => {
    const config = await project(HELLO, { openai_api_key: 'k' });
    expect(() =>
      startRun({
        config,
        mission: 'nope',
        inputs: {},
        stateDir: join(dir ?? '', '.sortie'),
        clients: failIfCalled(),
      }),
    ).toThrow(new UsageError('mission "nope" does not exist; missions: hello'));
  });

  it('names a missing required input with its description', async () => {
    const config = await project(HELLO, { openai_api_key: 'k' });
    let thrown: unknown;
    try {
      startRun({
        config,
        mission: 'hello',
        inputs: {},
        stateDir: join(dir ?? '', '.sortie'),
        clients: failIfCalled(),
      });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(UsageError);
    expect((thrown as UsageError).message).toBe(
      'mission "hello" needs input "name" (Who to greet)',
    );
    expect((thrown as UsageError).hint).toBe('pass it with --input name=VALUE');
  });

  it('rejects an input of the wrong type', async () => {
    const config = await project(HELLO, { openai_api_key: 'k' });
    expect(() =>
      startRun({
        config,
        mission: 'hello',
        inputs: { name: 3 },
        stateDir: join(dir ?? '', '.sortie'),
        clients: failIfCalled(),
      }),
    ).toThrow(UsageError);
  });

  it('requires the API key variable of the models the mission uses', async () => {
    const config = await project(HELLO);
    const start = () =>
      startRun({
        config,
        mission: 'hello',
        inputs: { name: 'Ada' },
        stateDir: join(dir ?? '', '.sortie'),
      });
    expect(start).toThrow(UsageError);
    expect(start).toThrow(/^variable "openai_api_key" has no value$/);
  });

  it('makes sortable run ids', () => {
    const early = newRunId(new Date('2026-01-02T03:04:05.006Z'));
    const late = newRunId(new Date('2026-01-02T03:04:05.007Z'));
    expect(early).toMatch(/^20260102T030405006Z-[0-9a-f]{6}$/);
    expect(early < late).toBe(true);
  });
});

/** A client that finishes any commander in two turns and counts requests in flight. */
function instantCommanders(stats: {
  inFlight: number;
  peak: number;
  requests: number;
}): ModelClientFactory {
  return (model) => ({
    model,
    async generate(request: ModelRequest): Promise<ModelResponse> {
      stats.inFlight += 1;
      stats.requests += 1;
      stats.peak = Math.max(stats.peak, stats.inFlight);
      await new Promise((resolve) => setImmediate(resolve));
      stats.inFlight -= 1;
      const planned = request.messages.length > 1;
      const id = `call_${stats.requests}`;
      const message: Message = planned
        ? {
            role: 'assistant',
            parts: [
              { type: 'tool_call', id: `${id}_a`, name: 'complete_subtask', arguments: '{}' },
              {
                type: 'tool_call',
                id: `${id}_b`,
                name: 'task_complete',
                arguments: '{"summary":"ok"}',
              },
            ],
          }
        : {
            role: 'assistant',
            parts: [
              { type: 'tool_call', id, name: 'set_subtasks', arguments: '{"subtasks":["Do"]}' },
            ],
          };
      return {
        message,
        stopReason: 'tool_use',
        usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
        model: model.apiName,
        warnings: [],
      };
    },
  });
}

describe('a 10,000-item parallel iteration', () => {
  it('keeps at most concurrency_limit commanders working and records every item', async () => {
    const items = Array.from({ length: 10_000 }, (_, index) => `{ n = ${index} }`).join(', ');
    const config = await project(`
model "local" {
  provider = "ollama"
  base_url = "http://127.0.0.1:1/v1"
  aliases = { small = "qwen3:8b" }
}
mission "many" {
  commander {
    model = models.local.small
  }
  dataset "numbers" {
    items = [${items}]
  }
  task "each" {
    objective = "Handle \${item.n}"
    iterator {
      dataset = datasets.numbers
      parallel = true
      concurrency_limit = 8
    }
  }
}`);
    const stats = { inFlight: 0, peak: 0, requests: 0 };
    let events = 0;
    const handle = startRun({
      config,
      mission: 'many',
      inputs: {},
      stateDir: join(dir ?? '', '.sortie'),
      clients: instantCommanders(stats),
      subscribers: [() => (events += 1)],
    });
    const result = await handle.done;
    expect(result.status).toBe('succeeded');
    expect(result.tasks[0]?.summary).toBe(
      'iterated over 10000 items of dataset numbers: 10000 succeeded, 0 failed',
    );
    expect(result.tasks[0]?.items).toHaveLength(10_000);
    expect(stats.requests).toBe(20_000);
    expect(stats.peak).toBe(8);
    expect(result.tokens).toBe(40_000);
    expect(events).toBeGreaterThan(20_000);
  }, 120_000);
});
