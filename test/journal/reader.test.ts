import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CorruptJournalError, JournalNotFoundError } from '../../src/journal/journal-errors.ts';
import { journalEvents, readJournal } from '../../src/journal/reader.ts';
import { openJournal } from '../../src/journal/writer.ts';
import { emitSampleRun } from './sample-run.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';

function eventLine(seq: number, message = `m${seq}`): string {
  return JSON.stringify({
    seq,
    time: '2026-01-01T00:00:00.000Z',
    runId: 'r',
    actor: 'run',
    type: 'warning',
    code: 'c',
    message,
  });
}

async function journalFile(text: string): Promise<string> {
  const path = join(await temporaryDirectory(), 'journal.jsonl');
  await writeFile(path, text);
  return path;
}

describe('readJournal', () => {
  it('returns every written event in order, message.appended included', async () => {
    const dir = await temporaryDirectory();
    const writer = await openJournal(dir);
    const seen = emitSampleRun('run-1', '2026-01-01T00:00:00.000Z', [writer.subscriber]);
    await writer.close();
    const content = await readJournal(writer.path);
    expect(content).toEqual({
      events: seen.filter((event) => event.type !== 'model.delta'),
      torn: false,
      problems: [],
    });
  });

  it('ignores a torn last line and says so', async () => {
    const path = await journalFile(`${eventLine(1)}\n${eventLine(2)}\n{"seq":3,"time":"2026-`);
    const content = await readJournal(path);
    expect(content.events.map((event) => event.seq)).toEqual([1, 2]);
    expect(content.torn).toBe(true);
    expect(content.problems).toEqual([
      'line 3: incomplete last line (the run stopped while writing it); ignored',
    ]);
  });

  it('accepts a complete last line without its newline', async () => {
    const path = await journalFile(`${eventLine(1)}\n${eventLine(2)}`);
    const content = await readJournal(path);
    expect(content.events.map((event) => event.seq)).toEqual([1, 2]);
    expect(content.torn).toBe(false);
  });

  it('rejects a corrupt line in the middle with its line number', async () => {
    const path = await journalFile(`${eventLine(1)}\n{"seq":2,"ti\n${eventLine(3)}\n`);
    const error = await readJournal(path).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CorruptJournalError);
    expect((error as CorruptJournalError).line).toBe(2);
    expect((error as CorruptJournalError).message).toMatch(
      new RegExp(
        `^journal ${path.replace(/[.\\]/g, '\\$&')} is corrupt at line 2: not valid JSON \\(`,
      ),
    );
  });

  it('rejects a newline-terminated bad last line as corruption, not a tear', async () => {
    const path = await journalFile(`${eventLine(1)}\nnot json\n`);
    await expect(readJournal(path)).rejects.toMatchObject({ line: 2 });
  });

  it('rejects a JSON line that is not an event', async () => {
    const path = await journalFile(`${eventLine(1)}\n{"seq":2}\n${eventLine(3)}\n`);
    await expect(readJournal(path)).rejects.toMatchObject({
      line: 2,
      detail: 'event has no "type"',
    });
  });

  it('skips blank lines and reports seq going backwards', async () => {
    const path = await journalFile(`${eventLine(1)}\n\n${eventLine(3)}\n${eventLine(2)}\n`);
    const content = await readJournal(path);
    expect(content.events.map((event) => event.seq)).toEqual([1, 3, 2]);
    expect(content.problems).toEqual(['line 4: seq 2 does not follow seq 3']);
  });

  it('reads lines longer than one read chunk', async () => {
    const long = 'x'.repeat(200_000);
    const path = await journalFile(`${eventLine(1, long)}\n${eventLine(2)}\n`);
    const content = await readJournal(path);
    expect(content.events.map((event) => (event as { message: string }).message.length)).toEqual([
      200_000, 2,
    ]);
  });

  it('names a missing journal', async () => {
    const path = join(await temporaryDirectory(), 'journal.jsonl');
    await expect(readJournal(path)).rejects.toBeInstanceOf(JournalNotFoundError);
  });

  it('streams events one by one', async () => {
    const path = await journalFile(`${eventLine(1)}\n${eventLine(2)}\n`);
    const lines: number[] = [];
    for await (const { line } of journalEvents(path)) lines.push(line);
    expect(lines).toEqual([1, 2]);
  });
});
