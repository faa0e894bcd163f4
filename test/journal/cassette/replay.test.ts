import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCassette } from '../../../src/journal/cassette/load.ts';
import { recordingClients } from '../../../src/journal/cassette/record.ts';
import { replayClients } from '../../../src/journal/cassette/replay-client.ts';
import { openCassetteWriter } from '../../../src/journal/cassette/cassette-writer.ts';
import type { Cassette } from '../../../src/journal/cassette/cassette-format.ts';
import {
  CassetteMismatchError,
  MissingCassetteTurnError,
} from '../../../src/journal/journal-errors.ts';
import { temporaryDirectory } from '../../helpers/temp-dir.ts';
import { fakeClients, model, noHooks, requestOf } from './fake-clients.ts';

const identity = (text: string) => text;

async function recordTwoActors(): Promise<{ path: string; answers: string[] }> {
  const path = join(await temporaryDirectory(), 'cassette.jsonl');
  const writer = await openCassetteWriter(path, {
    note: 'test recording',
    redact: identity,
    now: () => new Date('2026-05-06T07:08:09.000Z'),
  });
  const factory = recordingClients(fakeClients(), writer, identity);
  const commander = factory(model, noHooks);
  const agent = factory(model, noHooks);
  const answers: string[] = [];
  for (const [client, actor, text] of [
    [commander, 'commander:a', 'plan'],
    [agent, 'agent:a/researcher', 'research'],
    [commander, 'commander:a', 'continue'],
  ] as const) {
    const response = await client.generate(requestOf(actor, text));
    answers.push(
      response.message.parts.map((part) => (part.type === 'text' ? part.text : '')).join(''),
    );
  }
  await writer.close();
  return { path, answers };
}

describe('recording and replaying', () => {
  it('records one normalised entry per turn, counted per actor, after a header', async () => {
    const { path } = await recordTwoActors();
    const lines = (await readFile(path, 'utf8')).trimEnd().split('\n');
    expect(lines[0]).toBe(
      '{"cassette":1,"note":"test recording","created":"2026-05-06T07:08:09.000Z"}',
    );
    const entries = lines.slice(1).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries.map((entry) => [entry.actor, entry.turn])).toEqual([
      ['commander:a', 1],
      ['agent:a/researcher', 1],
      ['commander:a', 2],
    ]);
    expect(entries[0]).toEqual({
      actor: 'commander:a',
      turn: 1,
      model: { provider: 'openai', config: 'openai', key: 'gpt', apiName: 'gpt-4o' },
      request: {
        system: 'You are the commander.\nFollow the plan.',
        messages: [{ role: 'user', parts: [{ type: 'text', text: 'plan' }] }],
        tools: [
          {
            name: 'submit_output',
            description: 'Submit the output',
            parameters: { type: 'object' },
          },
        ],
        reasoning: null,
      },
      response: {
        message: { role: 'assistant', parts: [{ type: 'text', text: 'reply 1 to commander:a' }] },
        stopReason: 'end',
        usage: { input: 100, output: 10, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
        model: 'gpt-4o',
        warnings: [],
      },
    });
  });

  it('answers after a turn of the event loop, as a network reply would', async () => {
    const { path } = await recordTwoActors();
    const commander = replayClients(await loadCassette(path))(model, noHooks);
    let timersRan = false;
    setImmediate(() => (timersRan = true));
    await commander.generate(requestOf('commander:a', 'plan'));
    expect(timersRan).toBe(true);
  });

  it('answers the same requests with the recorded responses, usage included, streaming the text', async () => {
    const { path, answers } = await recordTwoActors();
    const factory = replayClients(await loadCassette(path));
    const commander = factory(model, noHooks);
    const agent = factory(model, noHooks);
    const deltas: string[] = [];
    const agentAnswer = await agent.generate(
      requestOf('agent:a/researcher', 'research', { onDelta: (text) => deltas.push(text) }),
    );
    const first = await commander.generate(requestOf('commander:a', 'plan'));
    const second = await commander.generate(requestOf('commander:a', 'continue'));
    const text = (response: typeof first) =>
      response.message.parts.map((part) => (part.type === 'text' ? part.text : '')).join('');
    expect([text(first), text(agentAnswer), text(second)]).toEqual(answers);
    expect(answers).toEqual([
      'reply 1 to commander:a',
      'reply 2 to agent:a/researcher',
      'reply 3 to commander:a',
    ]);
    expect(deltas).toEqual(['reply 2 to agent:a/resea', 'rcher']);
    expect(second.usage).toEqual({
      input: 300,
      output: 10,
      cacheRead: 0,
      cacheWrite: 0,
      reasoning: 0,
    });
    expect(commander.model).toBe(model);
  });

  it('fails a differing request with a readable diff of the first differing region', async () => {
    const { path } = await recordTwoActors();
    const client = replayClients(await loadCassette(path))(model, noHooks);
    const error = await client
      .generate(requestOf('commander:a', 'plan better'))
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CassetteMismatchError);
    expect((error as CassetteMismatchError).actor).toBe('commander:a');
    expect((error as CassetteMismatchError).turn).toBe(1);
    expect((error as CassetteMismatchError).message).toBe(
      [
        'model request of commander:a (turn 1) differs from the cassette in messages:',
        '--- cassette',
        '+++ this run',
        '@@ line 5 @@',
        '    {',
        '      "parts": [',
        '        {',
        '-         "text": "plan",',
        '+         "text": "plan better",',
        '          "type": "text"',
        '        }',
        '      ],',
      ].join('\n'),
    );
  });

  it('diffs the system prompt line by line', async () => {
    const { path } = await recordTwoActors();
    const client = replayClients(await loadCassette(path))(model, noHooks);
    const request = requestOf('commander:a', 'plan', {
      system: 'You are the commander.\nFollow the new plan.',
    });
    await expect(client.generate(request)).rejects.toThrow(
      [
        'model request of commander:a (turn 1) differs from the cassette in system:',
        '--- cassette',
        '+++ this run',
        '@@ line 2 @@',
        '  You are the commander.',
        '- Follow the plan.',
        '+ Follow the new plan.',
      ].join('\n'),
    );
  });

  it('reports a different model before anything else', async () => {
    const { path } = await recordTwoActors();
    const client = replayClients(await loadCassette(path))(
      { ...model, apiName: 'gpt-4.1' },
      noHooks,
    );
    const error = (await client
      .generate(requestOf('commander:a', 'other'))
      .catch((caught: unknown) => caught)) as Error;
    expect(error.message.split('\n').slice(0, 1)).toEqual([
      'model request of commander:a (turn 1) differs from the cassette in model:',
    ]);
    expect(error.message).toContain('-   "apiName": "gpt-4o",\n+   "apiName": "gpt-4.1",');
  });

  it('answers a differing request in lenient mode and warns with the diff', async () => {
    const { path } = await recordTwoActors();
    const warnings: string[] = [];
    const client = replayClients(await loadCassette(path), {
      lenient: true,
      onWarning: (message) => warnings.push(message),
    })(model, noHooks);
    const response = await client.generate(requestOf('commander:a', 'plan better'));
    expect(response.message.parts).toEqual([{ type: 'text', text: 'reply 1 to commander:a' }]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.split('\n').slice(0, 4)).toEqual([
      'model request of commander:a (turn 1) differs from the cassette in messages:',
      '--- cassette',
      '+++ this run',
      '@@ line 5 @@',
    ]);
  });

  it('names the actor and turn when the cassette has no answer', async () => {
    const { path } = await recordTwoActors();
    const factory = replayClients(await loadCassette(path), { lenient: true });
    const agent = factory(model, noHooks);
    await agent.generate(requestOf('agent:a/researcher', 'research'));
    const error = await agent
      .generate(requestOf('agent:a/researcher', 'more'))
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MissingCassetteTurnError);
    expect((error as Error).message).toBe(
      'the cassette has no turn 2 for actor agent:a/researcher: it recorded 1 turn for it',
    );
    await expect(factory(model, noHooks).generate(requestOf('commander:zzz', 'x'))).rejects.toThrow(
      'the cassette has no turns for actor commander:zzz (asked for turn 1)',
    );
  });

  it('stops before answering when the request is already aborted', async () => {
    const cassette: Cassette = { header: { cassette: 1, note: '', created: '' }, entries: [] };
    const controller = new AbortController();
    controller.abort();
    const client = replayClients(cassette)(model, noHooks);
    await expect(
      client.generate(requestOf('commander:a', 'x', { signal: controller.signal })),
    ).rejects.toMatchObject({ name: 'AbortError' });
  });
});
