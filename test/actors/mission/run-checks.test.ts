import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunOptions } from '../../../src/actors/contracts.ts';
import type { ModelClientFactory } from '../../../src/models/create-client.ts';
import { checkVariables } from '../../../src/actors/mission/run-checks.ts';
import { startRun } from '../../../src/run/start-run.ts';
import { loadProject } from '../../../src/config/index.ts';
import { UsageError } from '../../../src/base/errors.ts';
import type { Message, ModelRequest, ModelResponse } from '../../../src/models/model-types.ts';
import { temporaryDirectory } from '../../helpers/temp-dir.ts';

let dir: string | undefined;
const PROJECT = `
variable "openai_api_key" {
  secret = true
}
variable "who" {
}
model "openai" {
  provider = "openai"
  api_key  = vars.openai_api_key
}
mission "plain" {
  commander {
    model = models.openai.gpt_4o_mini
  }
  task "greet" {
    objective = "Greet the world"
  }
}
mission "personal" {
  commander {
    model = models.openai.gpt_4o_mini
  }
  task "greet" {
    objective = "Greet \${vars.who}"
  }
}`;

async function options(mission: string, clients?: ModelClientFactory): Promise<RunOptions> {
  dir = await temporaryDirectory('checks');
  await writeFile(join(dir, 'main.hcl'), PROJECT);
  const config = await loadProject(dir, { vars: {}, env: {} });
  return {
    config,
    mission,
    inputs: {},
    stateDir: join(dir, '.sortie'),
    ...(clients !== undefined ? { clients } : {}),
  };
}

/** Plans one subtask, then completes it and the task; records the API key each client got. */
function scriptedClients(keys: Array<string | undefined>): ModelClientFactory {
  return (model) => {
    keys.push(model.apiKey);
    return {
      model,
      generate(request: ModelRequest): Promise<ModelResponse> {
        const planned = request.messages.length > 1;
        const message: Message = {
          role: 'assistant',
          parts: planned
            ? [
                { type: 'tool_call', id: 'c2', name: 'complete_subtask', arguments: '{}' },
                {
                  type: 'tool_call',
                  id: 'c3',
                  name: 'task_complete',
                  arguments: '{"summary":"hi"}',
                },
              ]
            : [
                {
                  type: 'tool_call',
                  id: 'c1',
                  name: 'set_subtasks',
                  arguments: '{"subtasks":["Greet"]}',
                },
              ],
        };
        return Promise.resolve({
          message,
          stopReason: 'tool_use',
          usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
          model: model.apiName,
          warnings: [],
        });
      },
    };
  };
}

function thrownBy(run: () => void): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('checkVariables', () => {
  it('requires the API key variable when the real providers are used', async () => {
    const run = await options('plain');
    const missing = thrownBy(() => checkVariables(run));
    expect(missing).toBeInstanceOf(UsageError);
    expect((missing as UsageError).message).toBe('variable "openai_api_key" has no value');
  });

  it('needs no API key when the clients are replaced', async () => {
    const run = await options('plain', scriptedClients([]));
    expect(thrownBy(() => checkVariables(run))).toBeUndefined();
  });

  it('still requires the variables of objectives when the clients are replaced', async () => {
    const run = await options('personal', scriptedClients([]));
    const missing = thrownBy(() => checkVariables(run));
    expect(missing).toBeInstanceOf(UsageError);
    expect((missing as UsageError).message).toBe('variable "who" has no value');
  });
});

describe('a run with replaced clients and no API key', () => {
  it('resolves the commander model without a key and succeeds', async () => {
    const keys: Array<string | undefined> = [];
    const handle = startRun(await options('plain', scriptedClients(keys)));
    const result = await handle.done;
    expect(result.status).toBe('succeeded');
    expect(result.tasks.map((task) => [task.name, task.status, task.summary])).toEqual([
      ['greet', 'succeeded', 'hi'],
    ]);
    expect(keys).toEqual([undefined]);
  });
});
