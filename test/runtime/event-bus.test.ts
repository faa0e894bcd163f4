import { describe, expect, it, vi } from 'vitest';
import { EventBus } from '../../src/runtime/event-bus.ts';
import type { MissionEvent } from '../../src/base/events.ts';
import { createRedactor } from '../../src/base/redact.ts';
import { eventRedactor } from '../../src/run/run-redactor.ts';

function clock(): () => Date {
  let tick = 0;
  return () => new Date(Date.UTC(2026, 0, 1, 0, 0, tick++));
}

const warning = (message: string) =>
  ({ type: 'warning', actor: 'run', code: 'test', message }) as const;

describe('EventBus', () => {
  it('stamps seq, time and run id and delivers to every subscriber in order', () => {
    const bus = new EventBus({ runId: 'run-1', now: clock() });
    const seen: string[] = [];
    bus.subscribe((event) => seen.push(`a${event.seq}`));
    bus.subscribe((event) => seen.push(`b${event.seq}`));
    const first = bus.emit(warning('one'));
    bus.emit({ type: 'task.cancelled', actor: 'task:x', task: 'x', reason: 'user' });
    expect(first).toEqual({
      seq: 1,
      time: '2026-01-01T00:00:00.000Z',
      runId: 'run-1',
      type: 'warning',
      actor: 'run',
      code: 'test',
      message: 'one',
    });
    expect(seen).toEqual(['a1', 'b1', 'a2', 'b2']);
    expect(bus.lastSeq).toBe(2);
  });

  it('continues the seq of a resumed run', () => {
    const bus = new EventBus({ runId: 'r', now: clock(), lastSeq: 41 });
    expect(bus.emit(warning('x')).seq).toBe(42);
  });

  it('stops delivering after unsubscribe', () => {
    const bus = new EventBus({ runId: 'r', now: clock() });
    const seen: number[] = [];
    const unsubscribe = bus.subscribe((event) => seen.push(event.seq));
    bus.emit(warning('a'));
    unsubscribe();
    bus.emit(warning('b'));
    expect(seen).toEqual([1]);
  });

  it('keeps going when a subscriber throws and reports each subscriber once', () => {
    const errors: Array<[string, number]> = [];
    const bus = new EventBus({
      runId: 'r',
      now: clock(),
      onSubscriberError: (error, event) => errors.push([(error as Error).message, event.seq]),
    });
    const seen: number[] = [];
    bus.subscribe(() => {
      throw new Error('broken printer');
    });
    bus.subscribe((event) => seen.push(event.seq));
    bus.emit(warning('a'));
    bus.emit(warning('b'));
    bus.emit(warning('c'));
    expect(seen).toEqual([1, 2, 3]);
    expect(errors).toEqual([['broken printer', 1]]);
  });

  it('survives an error reporter that throws', () => {
    const bus = new EventBus({
      runId: 'r',
      now: clock(),
      onSubscriberError: () => {
        throw new Error('reporter down');
      },
    });
    bus.subscribe(() => {
      throw new Error('x');
    });
    expect(bus.emit(warning('a')).seq).toBe(1);
  });

  it('delivers events emitted by a subscriber after the current one, in seq order', () => {
    const bus = new EventBus({ runId: 'r', now: clock() });
    const seen: string[] = [];
    bus.subscribe((event) => {
      seen.push(`first:${event.seq}`);
      if (event.seq === 1) bus.emit(warning('nested'));
    });
    bus.subscribe((event) => seen.push(`second:${event.seq}`));
    bus.emit(warning('outer'));
    expect(seen).toEqual(['first:1', 'second:1', 'first:2', 'second:2']);
  });

  it('does not call a listener for the event types it ignores; the others get every event', () => {
    const bus = new EventBus({ runId: 'r', now: clock() });
    const journal: string[] = [];
    const everything: string[] = [];
    bus.subscribe(
      Object.assign((event: MissionEvent) => journal.push(`${event.type}:${event.seq}`), {
        ignoredTypes: new Set(['model.delta'] as const),
      }),
    );
    bus.subscribe((event) => everything.push(`${event.type}:${event.seq}`));
    bus.emit(warning('a'));
    bus.emit({ type: 'model.delta', actor: 'agent:a/b', requestId: 'request_1', text: 'hi' });
    bus.emit(warning('b'));
    expect(journal).toEqual(['warning:1', 'warning:3']);
    expect(everything).toEqual(['warning:1', 'model.delta:2', 'warning:3']);
  });

  it('delivers to a listener that subscribes after events of its type were delivered', () => {
    const bus = new EventBus({ runId: 'r', now: clock() });
    const first: number[] = [];
    const later: number[] = [];
    bus.subscribe((event) => first.push(event.seq));
    bus.emit(warning('a'));
    const unsubscribe = bus.subscribe((event) => later.push(event.seq));
    bus.emit(warning('b'));
    unsubscribe();
    bus.emit(warning('c'));
    expect(first).toEqual([1, 2, 3]);
    expect(later).toEqual([2]);
  });

  it('redacts before any subscriber sees the event', () => {
    const bus = new EventBus({
      runId: 'r',
      now: clock(),
      redact: eventRedactor(createRedactor(['s3cret'])),
    });
    const seen: MissionEvent[] = [];
    bus.subscribe((event) => seen.push(event));
    const returned = bus.emit({
      type: 'tool.called',
      actor: 'agent:a/b',
      callId: 'c1',
      tool: 'builtins_http_get',
      arguments: '{"url":"https://x.test/?key=s3cret"}',
    });
    expect(seen[0]).toEqual(returned);
    expect(returned).toMatchObject({ arguments: '{"url":"https://x.test/?key=••••"}' });
  });
});

describe('EventBus on the system clock', () => {
  it('stamps the current time; events of one millisecond share it', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date('2026-03-04T05:06:07.008Z'));
      const bus = new EventBus({ runId: 'r' });
      const first = bus.emit(warning('a'));
      const second = bus.emit(warning('b'));
      vi.setSystemTime(new Date('2026-03-04T05:06:07.009Z'));
      const third = bus.emit(warning('c'));
      expect([first.time, second.time, third.time]).toEqual([
        '2026-03-04T05:06:07.008Z',
        '2026-03-04T05:06:07.008Z',
        '2026-03-04T05:06:07.009Z',
      ]);
    } finally {
      vi.useRealTimers();
    }
  });
});
