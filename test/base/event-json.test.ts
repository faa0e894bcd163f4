import { describe, expect, it } from 'vitest';
import { eventJson, rememberEventJson } from '../../src/base/event-json.ts';
import type { MissionEvent } from '../../src/base/events.ts';

function warning(seq: number): MissionEvent {
  return {
    seq,
    time: '2026-01-01T00:00:00.000Z',
    runId: 'run-1',
    type: 'warning',
    actor: 'run',
    code: 'test',
    message: `warning ${seq}`,
  };
}

describe('eventJson', () => {
  it('gives the remembered text of each of the last 16 events, and stringifies older ones', () => {
    const events = Array.from({ length: 20 }, (_, index) => warning(index + 1));
    // A marker text tells a remembered text from one made anew.
    for (const event of events) rememberEventJson(event, `remembered ${event.seq}`);
    expect(events.slice(4).map(eventJson)).toEqual(
      events.slice(4).map((event) => `remembered ${event.seq}`),
    );
    expect(events.slice(0, 4).map(eventJson)).toEqual(
      events.slice(0, 4).map((event) => JSON.stringify(event)),
    );
  });

  it('stringifies an event it was never given', () => {
    const event = warning(99);
    expect(eventJson(event)).toBe(JSON.stringify(event));
  });
});
