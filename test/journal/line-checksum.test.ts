/**
 * Journal lines carry a CRC-32: a byte changed inside a string of the last line is a torn line
 * (ignored by the reader, cut by the repair before a resume appends), in a middle line it is
 * corruption, and lines of journals written before checksums are read as they are.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { EventInput } from '../../src/base/events.ts';
import { CorruptJournalError } from '../../src/journal/journal-errors.ts';
import { checkLine, withChecksum } from '../../src/journal/line-checksum.ts';
import { readJournal } from '../../src/journal/reader.ts';
import { repairTornTail } from '../../src/journal/repair.ts';
import { openJournal } from '../../src/journal/writer.ts';
import { EventBus } from '../../src/runtime/event-bus.ts';
import { steppingClock } from './sample-run.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';

const warning = (message: string): EventInput => ({
  type: 'warning',
  actor: 'run',
  code: 'note',
  message,
});

/** A journal of three warnings (`first`, `second`, `third`) written by the real writer. */
async function writtenJournal(): Promise<{ dir: string; path: string }> {
  const dir = await temporaryDirectory();
  const writer = await openJournal(dir, { fresh: false });
  const bus = new EventBus({ runId: 'r', now: steppingClock('2026-01-01T00:00:00.000Z') });
  bus.subscribe(writer.subscriber);
  for (const message of ['first', 'second', 'third']) bus.emit(warning(message));
  await writer.close();
  return { dir, path: writer.path };
}

/** Changes one byte of the file: the first `from` after `after` becomes `to`. */
async function changeByte(path: string, after: string, from: string, to: string): Promise<void> {
  const bytes = await readFile(path);
  const at = bytes.indexOf(from, bytes.indexOf(after));
  bytes[at] = to.charCodeAt(0);
  await writeFile(path, bytes);
}

const messages = (events: unknown[]) =>
  events.map((event) => (event as { message: string }).message);

describe('journal line checksums', () => {
  it("seals a line with the CRC-32 of its JSON text, over the text's UTF-8 bytes", () => {
    const sealed = withChecksum('{"seq":1,"message":"Ø"}');
    expect(sealed).toBe('{"seq":1,"message":"Ø","$crc":"30947b50"}');
    expect(checkLine(Buffer.from(sealed))).toBe('{"seq":1,"message":"Ø"}');
    expect(checkLine(Buffer.from('{"seq":1,"message":"Ø"}'))).toBe('unchecked');
    expect(checkLine(Buffer.from(sealed.replace('Ø', 'Ö')))).toBe('mismatch');
    expect(checkLine(Buffer.from(sealed.replace('30947b50', '30947b5z')))).toBe('mismatch');
  });

  it('a byte changed inside a string of the last line: the line is torn and ignored', async () => {
    const { path } = await writtenJournal();
    await changeByte(path, '"third"', 'h', 'i');
    const content = await readJournal(path);
    expect(messages(content.events)).toEqual(['first', 'second']);
    expect(content.torn).toBe(true);
    expect(content.problems).toEqual([
      'line 3: the last line does not match its checksum (it changed after it was written); ignored',
    ]);
  });

  it('a change that leaves the last line invalid JSON is torn too, not corruption', async () => {
    const { path } = await writtenJournal();
    await changeByte(path, '"third"', 'h', '"');
    const content = await readJournal(path);
    expect(messages(content.events)).toEqual(['first', 'second']);
    expect(content.torn).toBe(true);
  });

  it('a byte changed inside a string of a middle line is corruption at that line', async () => {
    const { path } = await writtenJournal();
    await changeByte(path, '"second"', 'c', 'k');
    const error = await readJournal(path).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CorruptJournalError);
    expect(error).toMatchObject({
      line: 2,
      detail: 'its checksum does not match (a byte changed)',
    });
  });

  it('a resumed journal is cut before the changed last line and goes on after it', async () => {
    const { dir, path } = await writtenJournal();
    await changeByte(path, '"third"', 'h', 'i');
    const writer = await openJournal(dir);
    const bus = new EventBus({
      runId: 'r',
      lastSeq: 2,
      now: steppingClock('2026-01-01T00:01:00.000Z'),
    });
    bus.subscribe(writer.subscriber);
    bus.emit(warning('after resume'));
    await writer.close();
    const content = await readJournal(path);
    expect(messages(content.events)).toEqual(['first', 'second', 'after resume']);
    expect(content.events.map((event) => event.seq)).toEqual([1, 2, 3]);
    expect([content.torn, content.problems]).toEqual([false, []]);
  });

  it('the repair leaves a sound last line alone', async () => {
    const { path } = await writtenJournal();
    const before = await readFile(path, 'utf8');
    expect(await repairTornTail(path)).toBe('none');
    expect(await readFile(path, 'utf8')).toBe(before);
  });

  it('reads a journal written before checksums, and one resumed since', async () => {
    const { path } = await writtenJournal();
    const newer = await readFile(path, 'utf8');
    const older = JSON.stringify({
      seq: 0,
      time: '2025-12-31T00:00:00.000Z',
      runId: 'r',
      actor: 'run',
      type: 'warning',
      code: 'note',
      message: 'zeroth',
    });
    await writeFile(path, `${older}\n${newer}`);
    const content = await readJournal(path);
    expect(messages(content.events)).toEqual(['zeroth', 'first', 'second', 'third']);
    expect(content.events[1]).toEqual({
      seq: 1,
      time: '2026-01-01T00:00:00.000Z',
      runId: 'r',
      actor: 'run',
      type: 'warning',
      code: 'note',
      message: 'first',
    });
    expect(content.torn).toBe(false);
  });
});
