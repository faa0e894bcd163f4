/** Mock-model files: their format and how their answers are picked per actor. */
import { describe, expect, it } from 'vitest';
import type { Message } from '../../../src/base/conversation.ts';
import { mockModelClients } from '../../../src/models/mock/mock-clients.ts';
import { MockModelFileError, parseMockModel } from '../../../src/models/mock/mock-file.ts';
import type { ModelRequest, ResolvedModel } from '../../../src/models/model-types.ts';

const model: ResolvedModel = {
  provider: 'openai',
  config: 'openai',
  key: 'gpt',
  apiName: 'gpt-4o',
  promptCaching: false,
  reasoningCapable: false,
};

const MOCK = `
commander:sum[*]:
  - text: first
  - text: second
agent:t/writer:
  - text: about cats
    when: { last_message_contains: cats }
  - text: anything
`;

function user(text: string): Message {
  return { role: 'user', parts: [{ type: 'text', text }] };
}

/** The text of the answer the mock gives `actor` after `messages`. */
async function ask(
  generate: (request: ModelRequest) => Promise<{ message: Message }>,
  actor: string,
  messages: Message[] = [user('go')],
): Promise<string> {
  const { message } = await generate({ system: '', messages, tools: [], actor });
  return message.parts.map((part) => (part.type === 'text' ? part.text : part.type)).join('|');
}

describe('mockModelClients', () => {
  it("uses each actor's answers in order, every actor a pattern names having its own place", async () => {
    const client = mockModelClients(parseMockModel('mock.yaml', MOCK))(model, {
      onRetry: () => {},
    });
    const generate = (request: ModelRequest) => client.generate(request);
    expect(await ask(generate, 'commander:sum[0]')).toBe('first');
    expect(await ask(generate, 'commander:sum[1]')).toBe('first');
    expect(await ask(generate, 'commander:sum[0]')).toBe('second');
  });

  it('answers with the first unused answer whose `when` fits the request', async () => {
    const client = mockModelClients(parseMockModel('mock.yaml', MOCK))(model, {
      onRetry: () => {},
    });
    const generate = (request: ModelRequest) => client.generate(request);
    expect(await ask(generate, 'agent:t/writer', [user('dogs')])).toBe('anything');
    expect(await ask(generate, 'agent:t/writer', [user('cats')])).toBe('about cats');
  });

  it('goes on after the answers a resumed conversation already holds', async () => {
    const client = mockModelClients(parseMockModel('mock.yaml', MOCK))(model, {
      onRetry: () => {},
    });
    const resumed: Message[] = [
      user('go'),
      { role: 'assistant', parts: [{ type: 'text', text: 'first' }] },
      user('again'),
    ];
    expect(await ask((request) => client.generate(request), 'commander:sum[2]', resumed)).toBe(
      'second',
    );
  });

  it('sends tool calls as JSON with ids unique per turn and stops for tool use', async () => {
    const mock = parseMockModel(
      'mock.yaml',
      'commander:a:\n  - text: planning\n    tool: set_subtasks\n    arguments: { subtasks: [one] }\n    tools: [{ name: get_subtasks }]\n',
    );
    const client = mockModelClients(mock)(model, { onRetry: () => {} });
    const response = await client.generate({
      system: '',
      messages: [user('go')],
      tools: [],
      actor: 'commander:a',
      turn: 3,
    });
    expect(response.message.parts).toEqual([
      { type: 'text', text: 'planning' },
      {
        type: 'tool_call',
        id: 'mock_3_1',
        name: 'set_subtasks',
        arguments: '{"subtasks":["one"]}',
      },
      { type: 'tool_call', id: 'mock_3_2', name: 'get_subtasks', arguments: '{}' },
    ]);
    expect(response.stopReason).toBe('tool_use');
  });

  it('fails a request of an actor no key names, with the request and an entry to add', async () => {
    const client = mockModelClients(parseMockModel('mock.yaml', MOCK))(model, {
      onRetry: () => {},
    });
    const error = await client
      .generate({
        system: '',
        messages: [user('Write a poem')],
        tools: [],
        actor: 'agent:t/poet',
        turn: 1,
      })
      .catch((caught: unknown) => caught);
    expect((error as Error).message).toBe(
      [
        'no mock answer for agent:t/poet (turn 1): no key of the file names this actor',
        '  last message: "Write a poem"',
        '  tools offered: none',
        'add an answer to mock.yaml, e.g.',
        '  agent:t/poet:',
        '    - text: "your answer"',
      ].join('\n'),
    );
  });
});

describe('parseMockModel', () => {
  it.each([
    ['commander:a: [{ }]', "/commander:a/0: must have required property 'text'"],
    [
      'commander:a:\n  - arguments: {}\n    text: x',
      '/commander:a/0: must have property tool when property arguments is present',
    ],
    [
      'commander:a: [',
      'line 1: Flow sequence in block collection must be sufficiently indented and end with a ]',
    ],
  ])('rejects %j with the file and the problem', (text, problem) => {
    expect(() => parseMockModel('mock.yaml', text)).toThrow(MockModelFileError);
    expect(() => parseMockModel('mock.yaml', text)).toThrow(`mock model mock.yaml: ${problem}`);
  });
});
