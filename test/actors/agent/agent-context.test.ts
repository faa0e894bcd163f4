import { afterEach, describe, expect, it } from 'vitest';
import { AgentToolbox, agentSystemPrompt } from '../../../src/actors/agent/index.ts';
import type { RunServices } from '../../../src/actors/contracts.ts';
import { findAgent } from '../../../src/config/mission-lookup.ts';
import { startHarness, type Harness } from './harness.ts';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const FULL_MISSION = `
memory "notes" {
  description = "Notes shared by every mission"
}

tool "lookup" {
  implements  = builtins.http.get
  description = "Looks a term up"
  inputs = {
    q = string("The term", true)
  }
  url = "http://127.0.0.1:9/lookup?q=\${inputs.q}"
}

agent "researcher" {
  model       = models.openai.gpt_4o
  personality = "You research carefully."
  tools       = [builtins.http.get, tools.lookup, builtins.utils.current_time]
}

mission "m" {
  commander {
    model = models.openai.gpt_4o
  }
  agents = [agents.researcher]
  inputs = {
    token  = string("The API token", { protected = true })
    brief  = file("The trip brief")
    cities = list(string, "Cities to cover", true)
  }
  memory {
    description = "Lessons from earlier runs"
  }
  scratchpad = true
  memories   = [memories.notes]
  dataset "cities" {
    description = "Cities to cover"
    bind_to     = inputs.cities
  }
  dataset "sections" {
    schema = {
      title = string("Section title", true)
    }
    items = [{ title = "Intro" }]
  }
  task "t" {
    objective = "do it"
  }
}
`;

function researcher(services: RunServices) {
  const agent = findAgent(services.config, services.mission, 'researcher');
  if (agent === undefined) throw new Error('test project has no researcher');
  return agent;
}

describe('agent tools and prompt', () => {
  it('offers configured, dataset and file tools in that order', async () => {
    harness = await startHarness({
      hcl: FULL_MISSION,
      turns: [],
      inputs: {
        token: 'tok-12345678',
        brief: { base64: Buffer.from('Visit in May.').toString('base64'), filename: 'brief.txt' },
        cities: ['Paris', 'Lyon'],
      },
    });
    const services = harness.services;
    const toolbox = new AgentToolbox(
      researcher(services),
      { ...services, secrets: Object.fromEntries(services.secrets) },
      'agent:analyze/researcher',
    );
    expect(toolbox.names()).toEqual([
      'builtins_http_get',
      'tools_lookup',
      'builtins_utils_current_time',
      'set_dataset',
      'dataset_sample',
      'dataset_count',
      'result_to_dataset',
      'file_list',
      'file_read',
      'file_create',
      'file_delete',
      'file_search',
      'file_grep',
      'file_view',
    ]);
    toolbox.addResultTools();
    toolbox.addResultTools();
    expect(toolbox.names().slice(14)).toEqual([
      'result_info',
      'result_items',
      'result_get',
      'result_keys',
      'result_chunk',
    ]);
  });

  it('offers the dataset tools in a mission that declares no dataset, and no file tools without slots', async () => {
    harness = await startHarness({
      hcl: `
agent "writer" {
  model       = models.openai.gpt_4o
  personality = "You write."
}

mission "m" {
  commander {
    model = models.openai.gpt_4o
  }
  agents = [agents.writer]
  task "t" {
    objective = "do it"
  }
}
`,
      turns: [],
    });
    const services = harness.services;
    const agent = findAgent(services.config, services.mission, 'writer');
    if (agent === undefined) throw new Error('test project has no writer');
    const toolbox = new AgentToolbox(agent, { ...services, secrets: {} }, 'agent:write/writer');
    expect(toolbox.names()).toEqual([
      'set_dataset',
      'dataset_sample',
      'dataset_count',
      'result_to_dataset',
    ]);
  });

  it('describes datasets, slots and secret names in the system prompt', async () => {
    harness = await startHarness({
      hcl: FULL_MISSION,
      turns: [],
      inputs: {
        token: 'tok-12345678',
        brief: { base64: Buffer.from('Visit in May.').toString('base64'), filename: 'brief.txt' },
        cities: ['Paris', 'Lyon'],
      },
    });
    const services = harness.services;
    const prompt = agentSystemPrompt(researcher(services), {
      config: services.config,
      mission: services.mission,
      datasets: services.datasets,
      slots: services.slots,
      secretNames: [...services.secrets.keys()],
    });
    expect(prompt).toBe(`You research carefully.

You work on one task at a time for a commander. Use your tools when they help; when you are done, reply with your answer as plain text and no tool call. Never make up facts you could not check.

## Datasets
Shared lists of items for this mission. Read them with dataset_sample and dataset_count; replace or extend them with set_dataset (items must match the schema).
- cities (2 items): Cities to cover
  Each item matches the JSON Schema {"type":"string"}
- sections (1 item)
  Each item:
    - title (string, required): Section title

## Files
Pass one of these as \`slot\` to the file tools; paths are relative to the slot.
- memory: Lessons from earlier runs
- scratchpad: scratch space for this run
- notes: Notes shared by every mission
- input.brief (read-only): The trip brief

## Secrets
Write \${secrets.NAME} in a tool argument to use a protected value; it is filled in just before the tool runs and never shown to you. Available: token.`);
    expect(prompt).not.toContain('tok-12345678');
  });

  it('gives a mission with only packets the file tools, and names each packet slot in the prompt', async () => {
    harness = await startHarness({
      hcl: `
packet "playbooks" {
  path        = "playbooks"
  description = "How we handle incidents"
}

packet "glossary" {
  path = "@/docs/glossary"
}

agent "writer" {
  model       = models.openai.gpt_4o
  personality = "You write."
}

mission "m" {
  commander {
    model = models.openai.gpt_4o
  }
  agents  = [agents.writer]
  packets = [packets.playbooks]
  task "t" {
    objective = "do it"
    packets   = [packets.glossary]
  }
}
`,
      files: { 'playbooks/outage.md': '# Outage\n', 'docs/glossary/terms.md': 'SLA\n' },
      turns: [],
    });
    const services = harness.services;
    const agent = findAgent(services.config, services.mission, 'writer');
    if (agent === undefined) throw new Error('test project has no writer');
    expect(services.slots.labels()).toEqual(['packet.playbooks', 'packet.glossary']);
    const toolbox = new AgentToolbox(agent, { ...services, secrets: {} }, 'agent:write/writer');
    expect(toolbox.names().slice(4)).toEqual([
      'file_list',
      'file_read',
      'file_create',
      'file_delete',
      'file_search',
      'file_grep',
      'file_view',
    ]);
    const prompt = agentSystemPrompt(agent, {
      config: services.config,
      mission: services.mission,
      datasets: services.datasets,
      slots: services.slots,
      secretNames: [],
    });
    expect(prompt.slice(prompt.indexOf('## Files'))).toBe(`## Files
Pass one of these as \`slot\` to the file tools; paths are relative to the slot.
- packet.playbooks (read-only, text files): How we handle incidents
- packet.glossary (read-only, text files): reference files`);
  });
});
