import { afterEach, describe, expect, it } from 'vitest';
import { ScriptedModelServer, ScriptNotDoneError } from '../../src/testing/server.ts';
import type { ScriptTurn } from '../../src/testing/script.ts';

let server: ScriptedModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(turns: ScriptTurn[]): Promise<ScriptedModelServer> {
  server = await ScriptedModelServer.start({ turns });
  return server;
}

/** A non-streaming Responses API call with plain fetch. */
async function post(
  text: string,
  options: {
    actor?: string;
    path?: string;
    headers?: Record<string, string>;
    stream?: boolean;
  } = {},
): Promise<Response> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    ...options.headers,
  };
  if (options.actor !== undefined) headers['x-sortie-actor'] = options.actor;
  const body = {
    model: 'gpt-4o',
    instructions: 'system text',
    input: [{ role: 'user', content: text }],
    stream: options.stream,
  };
  return fetch(`${server!.url}${options.path ?? '/v1/responses'}`, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
  });
}

const outputText = async (response: Response): Promise<string> =>
  ((await response.json()) as { output_text: string }).output_text;

describe('ScriptedModelServer', () => {
  it('listens on loopback and gives each SDK its base URL', async () => {
    await start([]);
    expect(server!.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server!.baseUrl('openai')).toBe(`${server!.url}/v1`);
    expect(server!.baseUrl('anthropic')).toBe(server!.url);
    expect(server!.baseUrl('gemini')).toBe(server!.url);
  });

  it('answers turns in order and records each request', async () => {
    await start([{ text: 'first' }, { text: 'second' }]);
    expect(await outputText(await post('a'))).toBe('first');
    expect(await outputText(await post('b'))).toBe('second');
    expect(
      server!.requests.map((request) => [
        request.protocol,
        request.method,
        request.path,
        request.turn,
        request.stream,
      ]),
    ).toEqual([
      ['openai', 'POST', '/v1/responses', 0, false],
      ['openai', 'POST', '/v1/responses', 1, false],
    ]);
    server!.assertDone();
  });

  it('matches turns by actor so parallel actors are answered deterministically', async () => {
    await start([
      { match: { actor: 'agent:b' }, text: 'for b' },
      { match: { actor: /^agent:a/ }, text: 'for a' },
    ]);
    const [forA, forB] = await Promise.all([
      post('x', { actor: 'agent:a1' }),
      post('y', { actor: 'agent:b' }),
    ]);
    expect([await outputText(forA), await outputText(forB)]).toEqual(['for a', 'for b']);
    expect(server!.requests.map((request) => [request.actor, request.turn]).sort()).toEqual([
      ['agent:a1', 1],
      ['agent:b', 0],
    ]);
    server!.assertDone();
  });

  it('matches turns by the last message and by any content', async () => {
    await start([
      { match: { lastMessageContains: 'weather' }, text: 'sunny' },
      { match: { contains: 'system text' }, text: 'saw the system' },
    ]);
    expect(await outputText(await post('what is the weather?'))).toBe('sunny');
    expect(await outputText(await post('anything'))).toBe('saw the system');
  });

  it('sends scripted errors with their retry headers in the protocol error format', async () => {
    await start([
      { error: { status: 429, message: 'slow down', retryAfter: '3', retryAfterMs: 2500 } },
    ]);
    const response = await post('x');
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('3');
    expect(response.headers.get('retry-after-ms')).toBe('2500');
    expect(await response.json()).toEqual({
      error: { message: 'slow down', type: 'rate_limit_error', param: null, code: null },
    });
  });

  it('drops the connection for a reset turn', async () => {
    await start([{ reset: true }]);
    await expect(post('x')).rejects.toThrow(TypeError);
    expect(server!.requests[0]!.turn).toBe(0);
  });

  it('answers an unexpected request with an explanation and fails assertDone', async () => {
    await start([{ match: { actor: 'agent:other' }, text: 'never' }]);
    const response = await post('hello', { actor: 'agent:me' });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
      'scripted model server: no unused script turn fits this openai request from actor agent:me (see ScriptedModelServer.assertDone())',
    );
    const error = (() => {
      try {
        server!.assertDone();
        return undefined;
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(ScriptNotDoneError);
    expect((error as ScriptNotDoneError).message).toBe(
      [
        '1 script turn was not used:',
        '  turn 0 (actor agent:other; text "never")',
        '1 unexpected request (no turn fitted):',
        '  POST /v1/responses actor agent:me',
      ].join('\n'),
    );
    expect((error as ScriptNotDoneError).unusedTurns).toEqual([0]);
  });

  it('records requests to unknown paths as unexpected', async () => {
    await start([]);
    const response = await post('x', { path: '/v1/chat/completions' });
    expect(response.status).toBe(400);
    expect(server!.requests[0]).toMatchObject({
      protocol: 'openai',
      path: '/v1/chat/completions',
      turn: -1,
    });
    expect(() => server!.assertDone()).toThrow(
      '1 unexpected request (no turn fitted):\n  POST /v1/chat/completions',
    );
  });

  it('fails assertDone while turns are left and passes once pushed turns are used', async () => {
    await start([{ text: 'one' }]);
    server!.push({ text: 'two' });
    await post('a');
    expect(() => server!.assertDone()).toThrow(
      '1 script turn was not used:\n  turn 1 (text "two")',
    );
    await post('b');
    server!.assertDone();
  });

  it('records credentials as [redacted]', async () => {
    await start([{ text: 'a' }, { text: 'b' }]);
    await post('x', {
      headers: {
        authorization: 'Bearer sk-secret',
        'x-api-key': 'sk-ant-secret',
        'x-goog-api-key': 'AIza-secret',
      },
    });
    await post('y', { path: '/v1/responses?key=AIza-secret&alt=sse' });
    const [first, second] = server!.requests;
    expect([
      first!.headers.authorization,
      first!.headers['x-api-key'],
      first!.headers['x-goog-api-key'],
    ]).toEqual(['[redacted]', '[redacted]', '[redacted]']);
    expect(second!.path).toBe('/v1/responses?key=[redacted]&alt=sse');
    expect(JSON.stringify(server!.requests)).not.toContain('secret');
  });

  it('sends a streaming reply as SSE frames', async () => {
    await start([{ text: 'hi there' }]);
    const response = await post('x', { stream: true });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const frames = (await response.text()).split('\n\n').filter((frame) => frame !== '');
    expect(frames.map((frame) => frame.split('\n')[0])).toEqual([
      'event: response.created',
      'event: response.in_progress',
      'event: response.output_item.added',
      'event: response.content_part.added',
      'event: response.output_text.delta',
      'event: response.output_text.delta',
      'event: response.output_text.done',
      'event: response.content_part.done',
      'event: response.output_item.done',
      'event: response.completed',
    ]);
    expect(server!.requests[0]!.stream).toBe(true);
  });

  it('cuts a truncated stream before its final event', async () => {
    await start([{ text: 'hi there', truncate: true }]);
    const body = await (await post('x', { stream: true })).text();
    expect(
      body
        .split('\n\n')
        .filter((frame) => frame !== '')
        .map((frame) => frame.split('\n')[0]),
    ).toEqual(['event: response.created', 'event: response.in_progress']);
  });
});
