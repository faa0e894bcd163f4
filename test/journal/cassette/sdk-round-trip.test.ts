import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ModelClientFactory } from '../../../src/models/create-client.ts';
import { loadCassette } from '../../../src/journal/cassette/load.ts';
import { recordingClients } from '../../../src/journal/cassette/record.ts';
import { replayClients } from '../../../src/journal/cassette/replay-client.ts';
import { openCassetteWriter } from '../../../src/journal/cassette/cassette-writer.ts';
import { createModelClient } from '../../../src/models/create-client.ts';
import type { ResolvedModel } from '../../../src/models/model-types.ts';
import { createRedactor } from '../../../src/base/redact.ts';
import { ScriptedModelServer } from '../../../src/testing/server.ts';
import { temporaryDirectory } from '../../helpers/temp-dir.ts';
import { noHooks, requestOf } from './fake-clients.ts';

let server: ScriptedModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const API_KEY = 'sk-test-cassette-key-9876543210';

describe('a cassette recorded through the real OpenAI client', () => {
  it('replays the scripted answers with no server, and never stores the key', async () => {
    server = await ScriptedModelServer.start({
      turns: [
        {
          match: { actor: 'commander:a' },
          text: 'first answer from the server',
          usage: { input: 120, output: 8 },
        },
        {
          match: { actor: 'commander:a' },
          toolCalls: [{ name: 'submit_output', arguments: { done: true }, id: 'call_1' }],
          usage: { input: 150, output: 12 },
        },
      ],
    });
    const model: ResolvedModel = {
      provider: 'openai',
      config: 'openai',
      key: 'gpt',
      apiName: 'gpt-4o',
      baseUrl: server.baseUrl('openai'),
      apiKey: API_KEY,
      promptCaching: true,
      reasoningCapable: false,
    };
    const redact = createRedactor([API_KEY]);
    const path = join(await temporaryDirectory(), 'cassette.jsonl');
    const writer = await openCassetteWriter(path, { note: 'scripted server', redact });
    const real: ModelClientFactory = (resolved, hooks) =>
      createModelClient(resolved, { onRetry: hooks.onRetry });
    const recording = recordingClients(real, writer, redact)(model, noHooks);
    const live = [
      await recording.generate(requestOf('commander:a', 'plan')),
      await recording.generate(requestOf('commander:a', 'go on')),
    ];
    await writer.close();
    await server.close();
    server = undefined;

    const text = await readFile(path, 'utf8');
    expect(text).not.toContain(API_KEY);
    expect(text.toLowerCase()).not.toContain('authorization');

    const replay = replayClients(await loadCassette(path))(model, noHooks);
    const replayed = [
      await replay.generate(requestOf('commander:a', 'plan')),
      await replay.generate(requestOf('commander:a', 'go on')),
    ];
    expect(replayed).toEqual(live);
    expect(replayed[0]?.message.parts).toEqual([
      { type: 'text', text: 'first answer from the server' },
    ]);
    expect(replayed[1]?.message.parts).toEqual([
      { type: 'tool_call', id: 'call_1', name: 'submit_output', arguments: '{"done":true}' },
    ]);
    expect(replayed.map((response) => [response.usage.input, response.usage.output])).toEqual([
      [120, 8],
      [150, 12],
    ]);
  });
});
