/**
 * Issue 16, item 7, through the real CLI — the seed's exact words: "Inside a mission they
 * also receive dataset tools" (every agent, datasets declared or not), and "Token usage is
 * tracked for every turn, including local models, whose dollar cost is 0" (also when the
 * local model block has a `pricing` block, which `verify` warns is ignored).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { MissionEvent } from '../../src/base/events.ts';
import {
  cleanUpAll,
  delegatingTask,
  jsonLines,
  sortie,
  startModelServer,
} from './agent-tools-harness.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';
import { runCli } from './cli-providers-harness.ts';
import { eventsOf, plainTask, reply, wireRequests } from './engine-harness.ts';

afterEach(cleanUpAll);

const WRITER_MISSION = `
agent "writer" {
  model       = MODEL
  personality = "You write."
}

mission "note" {
  commander {
    model = MODEL
  }
  agents = [agents.writer]
  task "write" {
    objective = "Write a note"
  }
}
`;

const AGENT = 'agent:write/writer';

describe('dataset tools for every agent of a mission (CLI)', () => {
  it('offers them to an agent of a mission that declares no dataset, which hears so', async () => {
    const run = await runCli({
      provider: 'openai',
      hcl: WRITER_MISSION,
      mission: 'note',
      turns: delegatingTask(
        'write',
        'writer',
        [
          {
            match: { actor: AGENT },
            toolCalls: [{ name: 'dataset_count', arguments: { name: 'notes' } }],
          },
          reply(AGENT, 'No dataset here.'),
        ],
        'Written',
      ),
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    run.server.assertDone();
    const [agentRequest] = wireRequests(run.server, AGENT);
    expect(agentRequest?.tools?.map((tool) => tool.name)).toEqual([
      'set_dataset',
      'dataset_sample',
      'dataset_count',
      'result_to_dataset',
    ]);
    expect(
      eventsOf(run.events, 'tool.completed')
        .filter((event) => event.actor === AGENT)
        .map((event) => event.result),
    ).toEqual([
      JSON.stringify({
        status: 'error',
        error:
          'dataset "notes" is not declared: this mission declares no datasets, and tools cannot create one; give the items in your answer instead',
      }),
    ]);
  }, 60_000);
});

const LOCAL_PROJECT = `
variable "base_url" {}

model "local" {
  provider = "ollama"
  base_url = vars.base_url
  aliases  = { small = "qwen3:8b" }
  pricing "small" {
    input  = 3
    output = 15
  }
}

agent "writer" {
  model       = models.local.small
  personality = "You write."
}

mission "note" {
  commander {
    model = models.local.small
  }
  agents = [agents.writer]
  task "write" {
    objective = "Write a note"
  }
}
`;

const PRICING_WARNING =
  'pricing "small" is ignored: a local model\'s dollar cost is always $0 (its tokens are still counted)';

describe('a local model with a pricing block (CLI)', () => {
  it('verify warns that local pricing is ignored', async () => {
    const project = await temporaryDirectory('local-pricing');
    await writeFile(join(project, 'main.hcl'), LOCAL_PROJECT);
    const verified = await sortie(['verify', project, '--var', 'base_url=http://127.0.0.1:9/v1']);
    expect(verified).toEqual({
      status: 0,
      stdout: `warning: ${PRICING_WARNING}\n --> main.hcl:8:11\n  |\n8 |   pricing "small" {\n  |           ^^^^^^^\n  = in model "local"\n  = hint: remove this pricing block\n\nok: 1 mission, 1 task, 1 agent, 1 model used (models.local.small), 1 warning\n`,
      stderr: '',
    });
  }, 60_000);

  it('costs $0 in every --json event and in the summary, with its tokens counted', async () => {
    const project = await temporaryDirectory('local-pricing');
    await writeFile(join(project, 'main.hcl'), LOCAL_PROJECT);
    // 1,000 input and 200 output tokens a turn: $0.006 a turn at the ignored prices.
    const turns = plainTask('write', 'writer', 'Written').map((turn) => ({
      ...turn,
      usage: { input: 1000, output: 200 },
    }));
    const run = async (mode: string): Promise<{ status: number | null; stdout: string }> => {
      const server = await startModelServer(turns);
      const result = await sortie([
        'run',
        project,
        mode,
        '--var',
        `base_url=${server.baseUrl('openai')}`,
        '--state-dir',
        join(project, 'state'),
      ]);
      server.assertDone();
      return result;
    };

    const json = await run('--json');
    expect(json.status).toBe(0);
    const events = jsonLines(json.stdout) as unknown as MissionEvent[];
    const responses = eventsOf(events, 'model.response');
    expect(responses.length).toBe(5);
    expect(responses.map((event) => [event.costPico, event.unpriced])).toEqual(
      responses.map(() => ['0', false]),
    );
    expect(responses.map((event) => [event.usage.input, event.usage.output])).toEqual(
      responses.map(() => [1000, 200]),
    );
    const [finished] = eventsOf(events, 'run.finished');
    expect(finished?.costPico).toBe('0');
    expect([finished?.usage.input, finished?.usage.output]).toEqual([5000, 1000]);

    const plain = await run('--plain');
    expect(plain.status).toBe(0);
    expect(plain.stdout).toContain(
      'costs:\n  local.small  5 requests  6,000 tokens  $0.0000\n  total        5 requests  6,000 tokens  $0.0000\n',
    );
  }, 60_000);
});
