import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCassette } from '../../src/journal/cassette/load.ts';
import { recordingClients } from '../../src/journal/cassette/record.ts';
import { replayClients } from '../../src/journal/cassette/replay-client.ts';
import { openCassetteWriter } from '../../src/journal/cassette/cassette-writer.ts';
import { openJournal } from '../../src/journal/writer.ts';
import { readJournal } from '../../src/journal/reader.ts';
import { eventRedactor } from '../../src/run/run-redactor.ts';
import { secretRedactor } from '../../src/tools/secrets.ts';
import type { ModelClientFactory } from '../../src/models/create-client.ts';
import { createRedactor, redactDeep } from '../../src/base/redact.ts';
import { EventBus } from '../../src/runtime/event-bus.ts';
import { model, noHooks, requestOf } from './cassette/fake-clients.ts';
import { steppingClock } from './sample-run.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';

const SECRET_VARIABLE = 'hunter2-variable-secret';
const PROTECTED_INPUT = 'pass"word\\with-escapes';
const API_KEY = model.apiKey ?? '';
const secrets = [SECRET_VARIABLE, PROTECTED_INPUT, API_KEY];
const redact = createRedactor(secrets);

function expectNoSecret(text: string): void {
  for (const secret of secrets) {
    expect(text).not.toContain(secret);
    expect(text).not.toContain(JSON.stringify(secret).slice(1, -1));
  }
}

/** A client that echoes secrets back, as a careless model might. */
const echoingClients: ModelClientFactory = (resolved) => ({
  model: resolved,
  generate: () =>
    Promise.resolve({
      message: {
        role: 'assistant',
        parts: [{ type: 'text', text: `the key is ${SECRET_VARIABLE} and ${PROTECTED_INPUT}` }],
      },
      stopReason: 'end',
      usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
      model: resolved.apiName,
      warnings: [`warning mentioning ${API_KEY}`],
    }),
});

describe('secrets', () => {
  it('never reach a cassette, and a replay still matches requests that carry them', async () => {
    const path = join(await temporaryDirectory(), 'cassette.jsonl');
    const writer = await openCassetteWriter(path, {
      note: `recorded with ${SECRET_VARIABLE}`,
      redact,
    });
    const request = requestOf('commander:a', `tool said ${PROTECTED_INPUT} / ${SECRET_VARIABLE}`, {
      system: `key ${API_KEY}`,
    });
    await recordingClients(echoingClients, writer, redact)(model, noHooks).generate(request);
    await writer.close();
    const text = await readFile(path, 'utf8');
    expectNoSecret(text);
    expect(text).toContain('the key is •••• and ••••');

    const replayed = await replayClients(await loadCassette(path), { redact })(
      model,
      noHooks,
    ).generate(request);
    expect(replayed.message.parts).toEqual([{ type: 'text', text: 'the key is •••• and ••••' }]);
  });

  it('never reach a journal fed by a redacting bus', async () => {
    const dir = await temporaryDirectory();
    const writer = await openJournal(dir);
    const bus = new EventBus({
      runId: 'r',
      now: steppingClock('2026-01-01T00:00:00.000Z'),
      redact: (event) => redactDeep(event, redact),
    });
    bus.subscribe(writer.subscriber);
    bus.emit({
      type: 'mission.started',
      actor: 'mission:m',
      mission: 'm',
      inputs: { password: PROTECTED_INPUT },
      chainedFrom: null,
    });
    bus.emit({
      type: 'tool.called',
      actor: 'agent:t/a',
      callId: 'c',
      tool: 'http',
      arguments: `{"token":"${SECRET_VARIABLE}"}`,
    });
    bus.emit({
      type: 'message.appended',
      actor: 'agent:t/a',
      conversation: 'agent:t/a',
      message: { role: 'user', parts: [{ type: 'text', text: `key ${API_KEY}` }] },
    });
    await writer.close();
    const text = await readFile(writer.path, 'utf8');
    expectNoSecret(text);
    expect(text.split('\n')).toHaveLength(4);
  });

  it('never reach a blob: a long result that echoes them is stored redacted, for either redaction path', async () => {
    // The run's redactor, on the plain-JSON path (one pass over the event's text) and the
    // per-string path (a secret with characters JSON escapes).
    for (const secretSet of [[SECRET_VARIABLE, API_KEY], secrets]) {
      const dir = await temporaryDirectory();
      const writer = await openJournal(dir);
      const bus = new EventBus({ runId: 'r', redact: eventRedactor(secretRedactor(secretSet)) });
      bus.subscribe(writer.subscriber);
      const page = `row of the page; `.repeat(3_000);
      const result = `${page}${secretSet.join(' and ')}${page}`;
      bus.emit({
        type: 'tool.completed',
        actor: 'agent:t/a',
        callId: 'c',
        tool: 'http',
        result: JSON.stringify({ status: 'ok', body: result }),
        isError: false,
        durationMs: 1,
      });
      await writer.close();
      const blobs = await readdir(join(dir, 'blobs'));
      expect(blobs).toHaveLength(1);
      const stored = await readFile(join(dir, 'blobs', blobs[0] ?? ''), 'utf8');
      expectNoSecret(stored);
      expect(stored).toBe(`${page}${secretSet.map(() => '••••').join(' and ')}${page}`);
      const { events } = await readJournal(writer.path);
      expect(events[0]).toMatchObject({
        result: JSON.stringify({ status: 'ok', body: stored }),
      });
    }
  });
});
