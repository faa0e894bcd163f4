import { describe, expect, it } from 'vitest';
import type { MissionEvent } from '../../src/base/events.ts';
import { redactSecrets } from '../../src/runtime/redact-secrets.ts';

const envelope = { seq: 1, time: '2026-01-01T00:00:00.000Z', runId: 'r', actor: 'mission:m' };

describe('redactSecrets', () => {
  it('replaces secret values in nested strings and leaves other values alone', () => {
    const event: MissionEvent = {
      ...envelope,
      type: 'mission.started',
      mission: 'm',
      chainedFrom: null,
      inputs: { token: 'abc-123-xyz', nested: ['x abc-123-xyz y', 7, true, null], count: 3 },
    };
    expect(redactSecrets(['abc-123-xyz'])(event)).toEqual({
      ...envelope,
      type: 'mission.started',
      mission: 'm',
      chainedFrom: null,
      inputs: { token: '[redacted]', nested: ['x [redacted] y', 7, true, null], count: 3 },
    });
  });

  it('removes a longer secret whole when it contains a shorter one', () => {
    const event: MissionEvent = {
      ...envelope,
      type: 'warning',
      code: 'c',
      message: 'key=pass1234',
    };
    expect(redactSecrets(['pass', 'pass1234'])(event)).toMatchObject({ message: 'key=[redacted]' });
  });

  it('returns the same event object when nothing needed redacting', () => {
    const event: MissionEvent = { ...envelope, type: 'warning', code: 'c', message: 'clean' };
    expect(redactSecrets(['zzz'])(event)).toBe(event);
    expect(redactSecrets(['', ''])(event)).toBe(event);
  });
});
