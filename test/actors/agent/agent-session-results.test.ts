/**
 * A resumed agent whose conversation holds the summary of a stored large result is offered the
 * result tools from its first request, as it was before the crash; one without is not.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RestoredConversation, RunServices } from '../../../src/actors/contracts.ts';
import type { Message } from '../../../src/models/model-types.ts';
import { researcherSession, startHarness, wireTools, type Harness } from './harness.ts';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const HCL = `
agent "researcher" {
  model       = models.openai.gpt_4o
  personality = "You research carefully."
  tools       = [builtins.http.get]
}

mission "m" {
  commander {
    model = models.openai.gpt_4o
  }
  agents = [agents.researcher]
  task "t" {
    objective = "do it"
  }
}
`;

const OWN_TOOLS = [
  'builtins_http_get',
  'set_dataset',
  'dataset_sample',
  'dataset_count',
  'result_to_dataset',
];
const RESULT_TOOLS = ['result_info', 'result_items', 'result_get', 'result_keys', 'result_chunk'];

const task: Message = { role: 'user', parts: [{ type: 'text', text: 'Read the page.' }] };
const getCall: Message = {
  role: 'assistant',
  parts: [
    {
      type: 'tool_call',
      id: 'g1',
      name: 'builtins_http_get',
      arguments: '{"url":"http://127.0.0.1:9/page"}',
    },
  ],
};

function resultOf(content: string): Message {
  return {
    role: 'user',
    parts: [
      { type: 'tool_result', callId: 'g1', name: 'builtins_http_get', content, isError: false },
    ],
  };
}

const SUMMARY = JSON.stringify({
  status: 'partial',
  result_id: 'r1',
  type: 'text',
  preview: 'Lorem ipsum',
  total_bytes: 120000,
});

function restoredWith(messages: Message[]): RestoredConversation {
  return { messages, toolResult: () => undefined, loadedSkills: [] };
}

async function firstRequestTools(services: RunServices, restored: RestoredConversation) {
  const session = researcherSession(services, { restored });
  expect(await session.resumeCall(0, { signal: new AbortController().signal })).toEqual({
    ok: true,
    result: 'Done.',
  });
  return wireTools(harness?.server.requests[0]?.body);
}

describe('a resumed agent and stored large results', () => {
  it('is offered the result tools when its conversation holds a stored result', async () => {
    harness = await startHarness({ hcl: HCL, turns: [{ text: 'Done.' }] });
    const tools = await firstRequestTools(
      harness.services,
      restoredWith([task, getCall, resultOf(SUMMARY)]),
    );
    expect(tools).toEqual([...OWN_TOOLS, ...RESULT_TOOLS]);
  });

  it('is not offered them when every result came back whole', async () => {
    harness = await startHarness({ hcl: HCL, turns: [{ text: 'Done.' }] });
    const tools = await firstRequestTools(
      harness.services,
      restoredWith([task, getCall, resultOf('{"status":200,"body":"short"}')]),
    );
    expect(tools).toEqual(OWN_TOOLS);
  });
});
