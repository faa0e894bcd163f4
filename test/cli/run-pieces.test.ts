import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEventHub } from '../../src/cli/event-hub.ts';
import { handleInterrupts, type SignalSource } from '../../src/cli/interrupts.ts';
import { pipeSafeWriter, type CliIo } from '../../src/cli/io.ts';
import { lazyJournal } from '../../src/run/lazy-journal.ts';
import { chooseOutputMode } from '../../src/cli/output-mode.ts';
import { exitCodeOf } from '../../src/base/exit-codes.ts';
import { UsageError } from '../../src/base/errors.ts';
import { EventBus } from '../../src/runtime/event-bus.ts';
import type { MissionEvent } from '../../src/base/events.ts';
import { temporaryDirectorySync } from '../helpers/temp-dir.ts';

function io(stdoutIsTty: boolean, env: Record<string, string | undefined> = {}): CliIo {
  return {
    stdout: () => undefined,
    stderr: () => undefined,
    env,
    stdoutIsTty,
    stderrIsTty: stdoutIsTty,
  };
}

function usageMessage(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof UsageError) return error.message;
  }
  return 'no error';
}

describe('chooseOutputMode', () => {
  it('shows the TUI only on an interactive stdout with CI unset and no output flag', () => {
    expect(chooseOutputMode({}, io(true))).toBe('tui');
    expect(chooseOutputMode({}, io(true, { CI: 'true' }))).toBe('plain');
    expect(chooseOutputMode({}, io(false))).toBe('plain');
    expect(chooseOutputMode({ plain: true }, io(true))).toBe('plain');
    expect(chooseOutputMode({ quiet: true }, io(true))).toBe('plain');
    expect(chooseOutputMode({ json: true }, io(true))).toBe('json');
    expect(chooseOutputMode({ json: true }, io(false))).toBe('json');
  });

  it('agrees with Ink on what counts as CI', () => {
    expect(chooseOutputMode({}, io(true, { CI: '' }))).toBe('plain');
    expect(chooseOutputMode({}, io(true, { CONTINUOUS_INTEGRATION: '1' }))).toBe('plain');
    expect(chooseOutputMode({}, io(true, { CI: '0' }))).toBe('tui');
    expect(chooseOutputMode({}, io(true, { CI: 'false' }))).toBe('tui');
  });

  it('allows stepping only where the TUI shows', () => {
    expect(chooseOutputMode({ step: true, break: ['model'] }, io(true))).toBe('tui');
    expect(usageMessage(() => chooseOutputMode({ step: true }, io(false)))).toBe(
      '--step needs the terminal UI to step and continue',
    );
    expect(usageMessage(() => chooseOutputMode({ break: ['model'] }, io(true)))).toBe('no error');
    expect(usageMessage(() => chooseOutputMode({ break: ['model'], plain: true }, io(true)))).toBe(
      '--break needs the terminal UI to step and continue',
    );
  });
});

describe('handleInterrupts', () => {
  function fakeSignals(): SignalSource & { fire(): void; count(): number } {
    const listeners = new Set<() => void>();
    return {
      on: (_signal, listener) => void listeners.add(listener),
      off: (_signal, listener) => void listeners.delete(listener),
      fire: () => [...listeners][0]?.(),
      count: () => listeners.size,
    };
  }

  it('cancels on the first signal and leaves at once on the second', () => {
    const signals = fakeSignals();
    const calls: string[] = [];
    const interrupts = handleInterrupts(
      () => calls.push('cancel'),
      () => calls.push('exit'),
      signals,
    );
    expect(signals.count()).toBe(1);
    signals.fire();
    expect(calls).toEqual(['cancel']);
    signals.fire();
    expect(calls).toEqual(['cancel', 'exit']);
    interrupts.dispose();
    expect(signals.count()).toBe(0);
  });

  it('treats a cancel from elsewhere (the TUI) as the first press', () => {
    const signals = fakeSignals();
    const calls: string[] = [];
    const interrupts = handleInterrupts(
      () => calls.push('cancel'),
      () => calls.push('exit'),
      signals,
    );
    interrupts.markCancelled();
    signals.fire();
    expect(calls).toEqual(['exit']);
  });
});

function events(count: number): MissionEvent[] {
  const bus = new EventBus({ runId: 'r-1', now: () => new Date('2026-01-01T00:00:00Z') });
  const emitted: MissionEvent[] = [];
  bus.subscribe((event) => emitted.push(event));
  for (let index = 0; index < count; index += 1) {
    bus.emit({ type: 'warning', actor: 'run', code: 'test', message: `event ${index + 1}` });
  }
  return emitted;
}

describe('createEventHub', () => {
  it('hands a late listener the events so far, then the new ones, without keeping history', () => {
    const hub = createEventHub();
    const [first, second, third] = events(3);
    hub.publish(first as MissionEvent);
    hub.publish(second as MissionEvent);
    const seen: number[] = [];
    const stop = hub.subscribe((event) => seen.push(event.seq));
    hub.publish(third as MissionEvent);
    expect(seen).toEqual([1, 2, 3]);
    const later: number[] = [];
    hub.subscribe((event) => later.push(event.seq));
    expect(later).toEqual([]);
    stop();
  });
});

describe('lazyJournal', () => {
  it('opens runs/RUN_ID/journal.jsonl on the first event and writes every event in order', async () => {
    const stateDir = temporaryDirectorySync('lazy');
    const journal = lazyJournal(stateDir);
    for (const event of events(3)) journal.subscriber(event);
    await journal.close();
    const lines = readFileSync(join(stateDir, 'runs', 'r-1', 'journal.jsonl'), 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => (JSON.parse(line) as MissionEvent).seq);
    expect(lines).toEqual([1, 2, 3]);
  });

  it('writes nothing and closes at once when the run never emitted', async () => {
    await expect(lazyJournal('/nonexistent/state').close()).resolves.toBeUndefined();
  });
});

describe('exitCodeOf', () => {
  it('maps succeeded, failed and cancelled to 0, 1 and 130', () => {
    expect(exitCodeOf('succeeded')).toBe(0);
    expect(exitCodeOf('failed')).toBe(1);
    expect(exitCodeOf('cancelled')).toBe(130);
  });
});

describe('pipeSafeWriter', () => {
  function fakeStream(): NodeJS.WritableStream & { written: string[] } {
    const emitter = new EventEmitter() as EventEmitter & {
      written: string[];
      write: (text: string) => boolean;
    };
    emitter.written = [];
    emitter.write = (text: string) => {
      emitter.written.push(text);
      return true;
    };
    return emitter as unknown as NodeJS.WritableStream & { written: string[] };
  }

  it('drops output once the reader has gone (EPIPE) instead of crashing', () => {
    const stream = fakeStream();
    const write = pipeSafeWriter(stream);
    write('one\n');
    stream.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    write('two\n');
    expect(stream.written).toEqual(['one\n']);
  });

  it('still throws other stream errors', () => {
    const stream = fakeStream();
    pipeSafeWriter(stream);
    expect(() => stream.emit('error', Object.assign(new Error('disk'), { code: 'EIO' }))).toThrow(
      'disk',
    );
  });
});
