import { readFile, writeFile, mkdir, access } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { JournalClosedError, JournalEncodingError } from '../../src/journal/journal-errors.ts';
import { readJournal } from '../../src/journal/reader.ts';
import { encodeJournalLine, JOURNAL_BATCH_CHARS, openJournal } from '../../src/journal/writer.ts';
import { EventBus } from '../../src/runtime/event-bus.ts';
import type { EventInput, MissionEvent } from '../../src/base/events.ts';
import { emitSampleRun, steppingClock } from './sample-run.ts';
import { fileLines, settleIo, waitForLines } from './journal-lines.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';

afterEach(() => {
  vi.useRealTimers();
});

const warning = (message: string): EventInput => ({
  type: 'warning',
  actor: 'run',
  code: 'test',
  message,
});

function newBus(): EventBus {
  return new EventBus({ runId: 'run-1', now: steppingClock('2026-01-01T00:00:00.000Z') });
}

describe('openJournal', () => {
  it('writes every event but deltas as one JSON object per line, message.appended included', async () => {
    const dir = await temporaryDirectory();
    const writer = await openJournal(dir);
    const seen = emitSampleRun('run-1', '2026-01-01T00:00:00.000Z', [writer.subscriber]);
    await writer.close();
    const lines = await fileLines(join(dir, 'journal.jsonl'));
    // Each line ends with its checksum (line-checksum.ts).
    const written = lines.map((line) => {
      const { $crc: checksum, ...event } = JSON.parse(line) as MissionEvent & { $crc: string };
      expect(checksum).toMatch(/^[0-9a-f]{8}$/);
      return event;
    });
    expect(written).toEqual(seen.filter((event) => event.type !== 'model.delta'));
    expect(seen).toHaveLength(24);
    expect(written).toHaveLength(23);
    expect(written.map((event) => event.type)).toContain('message.appended');
  });

  it('holds ordinary events until the 200 ms flush', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const dir = await temporaryDirectory();
    const writer = await openJournal(dir);
    const bus = newBus();
    bus.subscribe(writer.subscriber);
    bus.emit(warning('one'));
    bus.emit(warning('two'));
    vi.advanceTimersByTime(199);
    await settleIo();
    expect(await fileLines(writer.path)).toEqual([]);
    vi.advanceTimersByTime(1);
    const lines = await waitForLines(writer.path, 2);
    expect(lines.map((line) => (JSON.parse(line) as { message: string }).message)).toEqual([
      'one',
      'two',
    ]);
    await writer.close();
  });

  it('writes a batch at once when it reaches 64 KB, without waiting for the flush', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const dir = await temporaryDirectory();
    const writer = await openJournal(dir);
    const bus = newBus();
    bus.subscribe(writer.subscriber);
    const text = 'x'.repeat(1000);
    const lineLength = encodeJournalLine(bus.emit(warning(text))).line.length;
    const needed = Math.ceil(JOURNAL_BATCH_CHARS / lineLength);
    for (let index = 1; index < needed - 1; index++) bus.emit(warning(text));
    await settleIo();
    expect(await fileLines(writer.path)).toEqual([]);
    bus.emit(warning(text));
    // Written synchronously by the emit that filled the batch; no timer has run.
    expect(await fileLines(writer.path)).toHaveLength(needed);
    bus.emit(warning('next'));
    await settleIo();
    expect(await fileLines(writer.path)).toHaveLength(needed);
    await writer.close();
    expect(await fileLines(writer.path)).toHaveLength(needed + 1);
  });

  it('writes at once when a task ends, with everything before it', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const dir = await temporaryDirectory();
    const writer = await openJournal(dir);
    const bus = newBus();
    bus.subscribe(writer.subscriber);
    bus.emit(warning('before'));
    bus.emit({ type: 'task.failed', actor: 'task:x', task: 'x', error: 'boom', durationMs: 5 });
    const lines = await waitForLines(writer.path, 2);
    expect(lines.map((line) => (JSON.parse(line) as MissionEvent).type)).toEqual([
      'warning',
      'task.failed',
    ]);
    await writer.close();
  });

  it.each([
    { type: 'task.skipped', actor: 'task:x', task: 'x', reason: 'not_activated', cause: null },
    { type: 'mission.succeeded', actor: 'mission:m', mission: 'm', durationMs: 1 },
    {
      type: 'run.finished',
      actor: 'run',
      outcome: 'succeeded',
      exitCode: 0,
      durationMs: 1,
      usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
      costPico: '0',
    },
  ] as EventInput[])('writes at once after $type', async (input) => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const dir = await temporaryDirectory();
    const writer = await openJournal(dir);
    const bus = newBus();
    bus.subscribe(writer.subscriber);
    bus.emit(input);
    expect((await waitForLines(writer.path, 1)).length).toBe(1);
    await writer.close();
  });

  it('keeps emit order across many overlapping writes', async () => {
    const dir = await temporaryDirectory();
    const writer = await openJournal(dir);
    const bus = newBus();
    bus.subscribe(writer.subscriber);
    for (let index = 0; index < 600; index += 1) {
      if (index % 7 === 0)
        bus.emit({ type: 'task.cancelled', actor: 'task:x', task: 'x', reason: `r${index}` });
      else bus.emit(warning(`w${index}`));
    }
    await writer.close();
    const { events } = await readJournal(writer.path);
    expect(events.map((event) => event.seq)).toEqual(
      Array.from({ length: 600 }, (_, index) => index + 1),
    );
  });

  it('closes once: repeated close calls share one promise and later events are refused', async () => {
    const dir = await temporaryDirectory();
    const writer = await openJournal(dir);
    const bus = newBus();
    bus.subscribe(writer.subscriber);
    bus.emit(warning('kept'));
    const first = writer.close();
    expect(writer.close()).toBe(first);
    await first;
    await writer.close();
    expect(await fileLines(writer.path)).toHaveLength(1);
    const late = { ...bus.emit(warning('late')), seq: 9 } as MissionEvent;
    expect(() => writer.subscriber(late)).toThrow(JournalClosedError);
    expect(() =>
      writer.subscriber({
        ...late,
        type: 'model.delta',
        requestId: 'r',
        text: 'x',
      } as MissionEvent),
    ).not.toThrow();
    expect(await fileLines(writer.path)).toHaveLength(1);
  });

  it('marks the run as written by this process until it is closed', async () => {
    const dir = await temporaryDirectory();
    const writer = await openJournal(dir);
    expect(await readFile(join(dir, 'writer.pid'), 'utf8')).toBe(`${process.pid}\n`);
    await writer.close();
    await expect(access(join(dir, 'writer.pid'))).rejects.toThrow();
  });

  it('makes the folder of a new run and writes its journal there', async () => {
    const dir = join(await temporaryDirectory(), 'runs', 'run-1');
    const writer = await openJournal(dir, { fresh: true });
    expect(await readFile(join(dir, 'writer.pid'), 'utf8')).toBe(`${process.pid}\n`);
    const bus = newBus();
    bus.subscribe(writer.subscriber);
    bus.emit(warning('first'));
    await writer.close();
    expect((await readJournal(writer.path)).events.map((event) => event.seq)).toEqual([1]);
    await expect(access(join(dir, 'writer.pid'))).rejects.toThrow();
  });

  // A new run never appends to a journal that is already there (an id reused by mistake).
  it('refuses to open a new run over an existing journal, leaving it as it was', async () => {
    const dir = await temporaryDirectory();
    await writeFile(join(dir, 'journal.jsonl'), '{"seq":1,"ti');
    await expect(openJournal(dir, { fresh: true })).rejects.toMatchObject({ code: 'EEXIST' });
    expect(await readFile(join(dir, 'journal.jsonl'), 'utf8')).toBe('{"seq":1,"ti');
    await expect(access(join(dir, 'writer.pid'))).rejects.toThrow();
  });

  it('refuses an event carrying a bigint', async () => {
    const dir = await temporaryDirectory();
    const writer = await openJournal(dir);
    const event = {
      seq: 1,
      time: '2026-01-01T00:00:00.000Z',
      runId: 'r',
      actor: 'run',
      type: 'warning',
      code: 'x',
      message: 10n,
    } as unknown as MissionEvent;
    expect(() => writer.subscriber(event)).toThrow(JournalEncodingError);
    await writer.close();
    expect(await fileLines(writer.path)).toEqual([]);
  });

  it('continues a journal whose last line was torn, dropping the fragment', async () => {
    const dir = await temporaryDirectory();
    const good = JSON.stringify({
      seq: 1,
      time: 't',
      runId: 'r',
      actor: 'run',
      type: 'warning',
      code: 'c',
      message: 'm',
    });
    await writeFile(join(dir, 'journal.jsonl'), `${good}\n{"seq":2,"ti`);
    const writer = await openJournal(dir);
    const bus = new EventBus({
      runId: 'r',
      lastSeq: 1,
      now: steppingClock('2026-01-01T00:00:00.000Z'),
    });
    bus.subscribe(writer.subscriber);
    bus.emit(warning('after resume'));
    await writer.close();
    const content = await readJournal(writer.path);
    expect(content.torn).toBe(false);
    expect(content.events.map((event) => event.seq)).toEqual([1, 2]);
  });

  it('completes a last line that lacks only its newline', async () => {
    const dir = await temporaryDirectory();
    await mkdir(dir, { recursive: true });
    const good = JSON.stringify({
      seq: 1,
      time: 't',
      runId: 'r',
      actor: 'run',
      type: 'warning',
      code: 'c',
      message: 'm',
    });
    await writeFile(join(dir, 'journal.jsonl'), good);
    const writer = await openJournal(dir);
    const bus = new EventBus({
      runId: 'r',
      lastSeq: 1,
      now: steppingClock('2026-01-01T00:00:00.000Z'),
    });
    bus.subscribe(writer.subscriber);
    bus.emit(warning('next'));
    await writer.close();
    expect((await readJournal(writer.path)).events.map((event) => event.seq)).toEqual([1, 2]);
  });
});
