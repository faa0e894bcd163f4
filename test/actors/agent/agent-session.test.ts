import { afterEach, describe, expect, it, vi } from 'vitest';
import { httpGetTool } from '../../../src/tools/builtins/http-tools.ts';
import {
  startHarness,
  startToolServer,
  wireTools,
  wireTranscript,
  type Harness,
  researcherSession,
} from './harness.ts';

let harness: Harness | undefined;
let tools: Awaited<ReturnType<typeof startToolServer>> | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await harness?.close();
  await tools?.close();
  harness = undefined;
  tools = undefined;
});

const ACTOR = 'agent:t/researcher';
/** Every agent of a mission gets these, whether or not the mission declares a dataset. */
const DATASET_TOOLS = ['set_dataset', 'dataset_sample', 'dataset_count', 'result_to_dataset'];

function agentHcl(extra = '', agentExtra = ''): string {
  return `
agent "researcher" {
  model       = models.openai.gpt_4o
  personality = "You research carefully."
  tools       = [builtins.http.get]
${agentExtra}
}

mission "m" {
  commander {
    model = models.openai.gpt_4o
  }
  agents = [agents.researcher]
${extra}
  task "t" {
    objective = "do it"
  }
}
`;
}

const signal = (): AbortSignal => new AbortController().signal;

describe('agent session call', () => {
  it('runs a built-in tool against a local server and answers with the final text', async () => {
    tools = await startToolServer();
    harness = await startHarness({
      hcl: agentHcl(),
      turns: [
        {
          toolCalls: [
            { id: 'c1', name: 'builtins_http_get', arguments: { url: `${tools.url}/weather` } },
          ],
        },
        { text: 'It is 21 °C in Paris.' },
      ],
    });
    const session = researcherSession(harness.services);
    expect(session.finishedOnce).toBe(false);

    const result = await session.call('What is the weather in Paris?', { signal: signal() });

    expect(result).toEqual({ ok: true, result: 'It is 21 °C in Paris.' });
    expect(session.finishedOnce).toBe(true);
    expect(session.actorId).toBe(ACTOR);
    expect(tools.seen).toEqual(['GET /weather -']);
    const [first, second] = harness.server.requests;
    expect(first?.actor).toBe(ACTOR);
    expect(wireTools(first?.body)).toEqual(['builtins_http_get', ...DATASET_TOOLS]);
    expect(wireTranscript(second?.body)).toEqual([
      'user: What is the weather in Paris?',
      `call builtins_http_get {"url":"${tools.url}/weather"}`,
      'output: {"status":200,"content_type":"application/json","body":{"city":"Paris","celsius":21}}',
    ]);
    expect((first?.body as { instructions: string }).instructions).toBe(
      'You research carefully.\n\nYou work on one task at a time for a commander. Use your tools when they help; when you are done, reply with your answer as plain text and no tool call. Never make up facts you could not check.',
    );
    harness.server.assertDone();
  });

  it('emits message.appended for every message and tool events around the call', async () => {
    tools = await startToolServer();
    harness = await startHarness({
      hcl: agentHcl(),
      turns: [
        {
          toolCalls: [
            { id: 'c1', name: 'builtins_http_get', arguments: { url: `${tools.url}/weather` } },
          ],
        },
        { text: 'Sunny.' },
      ],
    });
    const session = researcherSession(harness.services);
    await session.call('Weather?', { signal: signal() });

    const appended = harness.events.filter((event) => event.type === 'message.appended');
    expect(appended.map((event) => event.conversation)).toEqual([ACTOR, ACTOR, ACTOR, ACTOR]);
    expect(appended.map((event) => event.message)).toEqual(session.messages());
    expect(
      session.messages().map((message) => [message.role, message.parts.map((part) => part.type)]),
    ).toEqual([
      ['user', ['text']],
      ['assistant', ['tool_call']],
      ['user', ['tool_result']],
      ['assistant', ['text']],
    ]);
    const types = harness.events
      .filter((event) => event.type !== 'model.delta')
      .map((event) => event.type);
    expect(types).toEqual([
      'message.appended',
      'model.request',
      'model.response',
      'message.appended',
      'tool.called',
      'tool.completed',
      'message.appended',
      'model.request',
      'model.response',
      'message.appended',
    ]);
    const completed = harness.events.find((event) => event.type === 'tool.completed');
    expect(completed).toMatchObject({
      actor: ACTOR,
      callId: 'c1',
      tool: 'builtins_http_get',
      isError: false,
      result:
        '{"status":200,"content_type":"application/json","body":{"city":"Paris","celsius":21}}',
    });
  });

  it('continues the same conversation on a later call', async () => {
    harness = await startHarness({
      hcl: agentHcl(),
      turns: [{ text: 'Paris is the capital.' }, { text: 'About 2.1 million people.' }],
    });
    const session = researcherSession(harness.services);
    await session.call('What is the capital of France?', { signal: signal() });
    const second = await session.call('How many people live there?', { signal: signal() });

    expect(second).toEqual({ ok: true, result: 'About 2.1 million people.' });
    expect(wireTranscript(harness.server.requests[1]?.body)).toEqual([
      'user: What is the capital of France?',
      'assistant: Paris is the capital.',
      'user: How many people live there?',
    ]);
  });

  it('fails after more than max_turns model turns', async () => {
    tools = await startToolServer();
    const call = { name: 'builtins_http_get', arguments: { url: `${tools.url}/weather` } };
    harness = await startHarness({
      hcl: agentHcl('', '  max_turns = 2'),
      turns: [{ toolCalls: [call] }, { toolCalls: [call] }],
    });
    const session = researcherSession(harness.services);
    const result = await session.call('Loop forever', { signal: signal() });

    expect(result).toEqual({ ok: false, reason: 'more than 2 model turns' });
    expect(session.finishedOnce).toBe(true);
    expect(harness.server.requests).toHaveLength(2);
    harness.server.assertDone();
  });

  it('fails with the provider error when the model cannot be reached', async () => {
    harness = await startHarness({
      hcl: agentHcl(),
      turns: [{ error: { status: 400, message: 'model not allowed' } }],
    });
    const result = await researcherSession(harness.services).call('Hello', { signal: signal() });
    expect(result).toEqual({ ok: false, reason: '400 model not allowed' });
  });

  it('turns a throwing tool into an error result and carries on', async () => {
    vi.spyOn(httpGetTool, 'execute').mockRejectedValueOnce(new Error('socket exploded'));
    harness = await startHarness({
      hcl: agentHcl(),
      turns: [
        { toolCalls: [{ name: 'builtins_http_get', arguments: { url: 'http://127.0.0.1:9/x' } }] },
        { text: 'The tool failed, so I cannot say.' },
      ],
    });
    const result = await researcherSession(harness.services).call('Fetch it', { signal: signal() });

    expect(result).toEqual({ ok: true, result: 'The tool failed, so I cannot say.' });
    expect(wireTranscript(harness.server.requests[1]?.body).at(-1)).toBe(
      'output: {"status":"error","error":"tool failed: socket exploded"}',
    );
    expect(harness.events.find((event) => event.type === 'tool.completed')).toMatchObject({
      isError: true,
      result: '{"status":"error","error":"tool failed: socket exploded"}',
    });
  });

  it('answers unknown tools and invalid arguments with error results', async () => {
    harness = await startHarness({
      hcl: agentHcl(),
      turns: [
        {
          toolCalls: [
            { name: 'builtins_http_post', arguments: {} },
            { name: 'builtins_http_get', arguments: { headers: {} } },
          ],
        },
        { text: 'done' },
      ],
    });
    await researcherSession(harness.services).call('Try things', { signal: signal() });
    expect(wireTranscript(harness.server.requests[1]?.body).slice(-2)).toEqual([
      'output: {"status":"error","error":"unknown tool \\"builtins_http_post\\" (did you mean \\"builtins_http_get\\"?); available tools: builtins_http_get, set_dataset, dataset_sample, dataset_count, result_to_dataset"}',
      `output: {"status":"error","error":"invalid arguments for builtins_http_get","problems":["/: must have required property 'url'"]}`,
    ]);
  });

  it('tells an agent without tools of its own that it has none, suggesting only tools it can call', async () => {
    harness = await startHarness({
      hcl: agentHcl().replace('  tools       = [builtins.http.get]\n', ''),
      turns: [
        {
          toolCalls: [
            { name: 'builtins_http_get', arguments: { url: 'http://127.0.0.1:9/x' } },
            { name: 'dataset_cont', arguments: { name: 'cities' } },
          ],
        },
        { text: 'done' },
      ],
    });
    await researcherSession(harness.services).call('Try things', { signal: signal() });
    expect(wireTools(harness.server.requests[0]?.body)).toEqual(DATASET_TOOLS);
    expect(wireTranscript(harness.server.requests[1]?.body).slice(-2)).toEqual([
      'output: {"status":"error","error":"unknown tool \\"builtins_http_get\\"; this agent has no tools of its own, only the mission\'s: set_dataset, dataset_sample, dataset_count, result_to_dataset"}',
      'output: {"status":"error","error":"unknown tool \\"dataset_cont\\" (did you mean \\"dataset_count\\"?); this agent has no tools of its own, only the mission\'s: set_dataset, dataset_sample, dataset_count, result_to_dataset"}',
    ]);
  });

  it('substitutes secrets into arguments and redacts them from results and events', async () => {
    tools = await startToolServer();
    const token = 'tok-very-secret-4242';
    harness = await startHarness({
      hcl: agentHcl(`  inputs = {
    token = string("The API token", { protected = true })
  }`),
      inputs: { token },
      turns: [
        {
          toolCalls: [
            {
              name: 'builtins_http_get',
              arguments: {
                url: `${tools.url}/echo`,
                headers: { authorization: 'Bearer ${secrets.token}' },
              },
            },
          ],
        },
        { text: 'Authorised.' },
      ],
    });
    await researcherSession(harness.services).call('Call the API', { signal: signal() });

    expect(tools.seen).toEqual([`GET /echo Bearer ${token}`]);
    expect(wireTranscript(harness.server.requests[1]?.body).at(-1)).toBe(
      'output: {"status":200,"content_type":"application/json","body":{"authorization":"Bearer ••••"}}',
    );
    const instructions = (harness.server.requests[0]?.body as { instructions: string })
      .instructions;
    expect(instructions).toContain('Available: token.');
    expect(instructions).not.toContain(token);
    expect(JSON.stringify(harness.events)).not.toContain(token);
    expect(harness.events.find((event) => event.type === 'tool.called')).toMatchObject({
      arguments: `{"url":"${tools.url}/echo","headers":{"authorization":"Bearer \${secrets.token}"}}`,
    });
  });

  it('stores a large array result and offers the result tools from the next request on', async () => {
    const cities = JSON.stringify(Array.from({ length: 25 }, (_, index) => ({ id: index })));
    harness = await startHarness({
      hcl: agentHcl('  scratchpad = true'),
      turns: [
        {
          toolCalls: [
            {
              name: 'file_create',
              arguments: { slot: 'scratchpad', path: 'cities.json', content: cities },
            },
          ],
        },
        {
          toolCalls: [
            { name: 'file_read', arguments: { slot: 'scratchpad', path: 'cities.json' } },
          ],
        },
        { toolCalls: [{ name: 'result_info', arguments: { id: 'result_1' } }] },
        { text: '25 cities.' },
      ],
    });
    await researcherSession(harness.services).call('List cities', { signal: signal() });

    const requests = harness.server.requests;
    const fileTools = [
      'file_list',
      'file_read',
      'file_create',
      'file_delete',
      'file_search',
      'file_grep',
      'file_view',
    ];
    const resultTools = [
      'result_info',
      'result_items',
      'result_get',
      'result_keys',
      'result_chunk',
    ];
    expect(wireTools(requests[1]?.body)).toEqual([
      'builtins_http_get',
      ...DATASET_TOOLS,
      ...fileTools,
    ]);
    expect(wireTools(requests[2]?.body)).toEqual([
      'builtins_http_get',
      ...DATASET_TOOLS,
      ...fileTools,
      ...resultTools,
    ]);
    expect(wireTools(requests[3]?.body)).toEqual([
      'builtins_http_get',
      ...DATASET_TOOLS,
      ...fileTools,
      ...resultTools,
    ]);
    expect(wireTranscript(requests[2]?.body).at(-1)).toBe(
      'output: {"status":"partial","result_id":"result_1","type":"array","total_items":25,"sample":[{"id":0},{"id":1},{"id":2},{"id":3},{"id":4}]}',
    );
    expect(wireTranscript(requests[3]?.body).at(-1)).toBe(
      `output: {"status":"ok","result_id":"result_1","type":"array","total_items":25,"total_bytes":${cities.length},"total_chars":${cities.length}}`,
    );
    harness.server.assertDone();
  });

  it('stores a result over the agent threshold (tool_response.max_tokens × 4 bytes)', async () => {
    tools = await startToolServer();
    harness = await startHarness({
      hcl: agentHcl('', '  tool_response {\n    max_tokens = 20\n  }'),
      turns: [
        { toolCalls: [{ name: 'builtins_http_get', arguments: { url: `${tools.url}/weather` } }] },
        { text: 'done' },
      ],
    });
    await researcherSession(harness.services).call('Weather', { signal: signal() });
    // The 85-byte HTTP result is over 20 × 4 = 80 bytes; its body is what gets stored.
    expect(wireTranscript(harness.server.requests[1]?.body).at(-1)).toBe(
      'output: {"status":"partial","result_id":"result_1","type":"object","http_status":200,"content_type":"application/json","keys":["city","celsius"],"total_bytes":29}',
    );
    expect(wireTools(harness.server.requests[1]?.body)).toContain('result_chunk');
  });
});
