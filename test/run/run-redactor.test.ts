import { afterEach, describe, expect, it, vi } from 'vitest';
import { eventRedactor } from '../../src/run/run-redactor.ts';
import { encodeEvent } from '../../src/journal/writer.ts';
import { createRedactor } from '../../src/base/redact.ts';
import { secretRedactor } from '../../src/tools/secrets.ts';
import type { MissionEvent } from '../../src/base/events.ts';

const redactEvent = eventRedactor(createRedactor(['sk-secret-123']));

function appended(text: string, key = 'note'): MissionEvent {
  return {
    seq: 1,
    time: '2026-01-01T00:00:00.000Z',
    runId: 'run-1',
    type: 'message.appended',
    actor: 'agent:t/a',
    conversation: 'agent:t/a',
    message: {
      role: 'user',
      parts: [
        { type: 'text', text: 'nothing to hide' },
        { type: 'tool_result', callId: 'c1', name: key, content: text, isError: false },
      ],
    },
  };
}

describe('eventRedactor', () => {
  it('returns an event holding no secret as it is, without copying it', () => {
    const event = appended('plain text');
    expect(redactEvent(event)).toBe(event);
  });

  it('copies only the branches holding a secret and leaves the original untouched', () => {
    const event = appended('key is sk-secret-123 here');
    const redacted = redactEvent(event) as Extract<MissionEvent, { type: 'message.appended' }>;
    const original = event as Extract<MissionEvent, { type: 'message.appended' }>;
    expect(redacted).not.toBe(event);
    expect(redacted.message.parts[1]).toEqual({
      type: 'tool_result',
      callId: 'c1',
      name: 'note',
      content: 'key is •••• here',
      isError: false,
    });
    // The untouched first part is shared, the original still holds its text.
    expect(redacted.message.parts[0]).toBe(original.message.parts[0]);
    expect(original.message.parts[1]).toMatchObject({ content: 'key is sk-secret-123 here' });
  });

  it('redacts secrets in object keys too', () => {
    const event: MissionEvent = {
      seq: 2,
      time: '2026-01-01T00:00:00.000Z',
      runId: 'run-1',
      type: 'output.submitted',
      actor: 'commander:t',
      task: 't',
      index: null,
      output: { 'sk-secret-123': 1, other: 2 },
      replaced: false,
    };
    expect(redactEvent(event)).toMatchObject({ output: { '••••': 1, other: 2 } });
  });

  it('finds a secret nested in JSON text inside a string, with or without characters JSON escapes', () => {
    // A tool result is JSON text; inside the event's own JSON it is escaped once more.
    for (const secret of ['sk-plain-456789', 'pa"ss\\word-99']) {
      const redact = eventRedactor(secretRedactor([secret]));
      const nested = JSON.stringify({ key: secret });
      const redacted = redact(appended(nested)) as Extract<
        MissionEvent,
        { type: 'message.appended' }
      >;
      const content = String((redacted.message.parts[1] as { content: string }).content);
      expect(content).not.toContain(JSON.stringify(secret).slice(1, -1));
      expect(content).toContain('••••');
    }
  });

  it('hands the journal the JSON text it checked, so the event is stringified once', () => {
    const event = appended('plain text');
    expect(redactEvent(event)).toBe(event);
    expect(encodeEvent(event)).toBe(`${JSON.stringify(event)}\n`);
  });

  it('hands every event back as it is, unstringified, when the run has no secret', () => {
    const redact = eventRedactor(createRedactor([]));
    const event = appended('key is sk-secret-123 here');
    const stringify = vi.spyOn(JSON, 'stringify');
    expect(redact(event)).toBe(event);
    expect(stringify).not.toHaveBeenCalled();
  });

  it('redacts a delta string by string without stringifying the event', () => {
    const delta: MissionEvent = {
      seq: 3,
      time: '2026-01-01T00:00:00.000Z',
      runId: 'run-1',
      type: 'model.delta',
      actor: 'agent:t/a',
      requestId: 'request_1',
      text: 'the key is sk-secret-123',
    };
    const stringify = vi.spyOn(JSON, 'stringify');
    expect(redactEvent(delta)).toEqual({ ...delta, text: 'the key is ••••' });
    expect(stringify).not.toHaveBeenCalled();
  });

  it('redacts the secrets of a chained mission from the next event on, after a run without any', () => {
    const holder = { current: createRedactor([]) };
    const redact = eventRedactor(holder);
    expect(redact(appended('chained sk-chained-789'))).toMatchObject({
      message: { parts: [{}, { content: 'chained sk-chained-789' }] },
    });
    holder.current = createRedactor(['sk-chained-789']);
    expect(redact(appended('chained sk-chained-789'))).toMatchObject({
      message: { parts: [{}, { content: 'chained ••••' }] },
    });
  });
});

afterEach(() => {
  vi.restoreAllMocks();
});
