import { appendFile, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BLOB_MIN_CHARS, BLOB_PLACEHOLDER, blobHash } from '../../src/journal/blob-references.ts';
import { CorruptJournalError } from '../../src/journal/journal-errors.ts';
import { readJournal } from '../../src/journal/reader.ts';
import { encodeJournalLine, openJournal } from '../../src/journal/writer.ts';
import { withChecksum } from '../../src/journal/line-checksum.ts';
import { EventBus } from '../../src/runtime/event-bus.ts';
import type { EventInput, MissionEvent } from '../../src/base/events.ts';
import { steppingClock } from './sample-run.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';

/** 1 MB of text JSON escapes (quotes, a newline, a backslash), as an agent might answer. */
const ANSWER = `{"row": "a \\"quoted\\" value"}\n`.repeat(40_000);
const USAGE = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, reasoning: 0 };
const MODEL = { provider: 'openai', config: 'main', key: 'mini', apiName: 'gpt-4o-mini' } as const;

/** The four events that carry one agent answer to its commander. */
function answerEvents(answer: string): EventInput[] {
  const agent = 'agent:t/reader';
  const commander = 'commander:t';
  const message = { role: 'assistant' as const, parts: [{ type: 'text' as const, text: answer }] };
  const result = JSON.stringify({ status: 'ok', agent: 'reader', result: answer });
  return [
    {
      type: 'model.response',
      actor: agent,
      requestId: 'q1',
      model: MODEL,
      message,
      usage: USAGE,
      costPico: '0',
      unpriced: false,
      stopReason: 'end',
      durationMs: 1,
    },
    { type: 'message.appended', actor: agent, conversation: agent, message },
    {
      type: 'tool.completed',
      actor: commander,
      callId: 'c1',
      tool: 'call_agent',
      result,
      isError: false,
      durationMs: 2,
    },
    {
      type: 'message.appended',
      actor: commander,
      conversation: commander,
      message: {
        role: 'user',
        parts: [
          {
            type: 'tool_result',
            callId: 'c1',
            name: 'call_agent',
            content: result,
            isError: false,
          },
        ],
      },
    },
  ];
}

async function journalOf(inputs: EventInput[]): Promise<{ dir: string; emitted: MissionEvent[] }> {
  const dir = await temporaryDirectory();
  const writer = await openJournal(dir);
  const bus = new EventBus({ runId: 'r', now: steppingClock('2026-01-01T00:00:00.000Z') });
  bus.subscribe(writer.subscriber);
  const emitted = inputs.map((input) => bus.emit(input));
  await writer.close();
  return { dir, emitted };
}

async function sizeOf(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) total += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return total;
}

describe('long strings in the journal', () => {
  it('store an answer carried by four events once, as its own bytes, and read back the same events', async () => {
    const { dir, emitted } = await journalOf(answerEvents(ANSWER));
    expect(await readdir(join(dir, 'blobs'))).toEqual([`${blobHash(ANSWER)}.txt`]);
    expect(await readFile(join(dir, 'blobs', `${blobHash(ANSWER)}.txt`), 'utf8')).toBe(ANSWER);
    const journalBytes = (await stat(join(dir, 'journal.jsonl'))).size;
    expect(journalBytes).toBeLessThan(4_000);
    expect(await sizeOf(dir)).toBe(ANSWER.length + journalBytes);
    const { events } = await readJournal(join(dir, 'journal.jsonl'));
    expect(events).toEqual(emitted);
  });

  it('keep the line an event with its long strings replaced and listed under $blobs', () => {
    const [, appended] = answerEvents(ANSWER);
    const event = { ...appended, seq: 2, time: 't', runId: 'r' } as MissionEvent;
    const { line, blobs } = encodeJournalLine(event);
    const { $crc: checksum, ...written } = JSON.parse(line) as { $crc: string };
    expect(line).toBe(`${withChecksum(JSON.stringify(written))}\n`);
    expect(checksum).toMatch(/^[0-9a-f]{8}$/);
    expect(written).toEqual({
      seq: 2,
      time: 't',
      runId: 'r',
      type: 'message.appended',
      actor: 'agent:t/reader',
      conversation: 'agent:t/reader',
      message: { role: 'assistant', parts: [{ type: 'text', text: BLOB_PLACEHOLDER }] },
      $blobs: [
        {
          at: ['message', 'parts', 0, 'text'],
          sha256: blobHash(ANSWER),
          bytes: ANSWER.length,
        },
      ],
    });
    expect([...blobs.keys()]).toEqual([blobHash(ANSWER)]);
  });

  it('keep a JSON result whose keys JSON.stringify would reorder as one blob, read back exactly', async () => {
    const result = `{"b":"${'x'.repeat(BLOB_MIN_CHARS)}","7":1}`;
    const { dir, emitted } = await journalOf([
      {
        type: 'tool.completed',
        actor: 'agent:t/a',
        callId: 'c',
        tool: 'mcp_read',
        result,
        isError: false,
        durationMs: 1,
      },
    ]);
    expect(await readdir(join(dir, 'blobs'))).toEqual([`${blobHash(result)}.txt`]);
    expect((await readJournal(join(dir, 'journal.jsonl'))).events).toEqual(emitted);
  });

  it('leave short strings in the line and write no blob folder', async () => {
    const short = 'y'.repeat(BLOB_MIN_CHARS - 1);
    const { dir, emitted } = await journalOf([
      { type: 'warning', actor: 'run', code: 'c', message: short },
    ]);
    expect(await readdir(dir)).toEqual(['journal.jsonl']);
    expect((await readJournal(join(dir, 'journal.jsonl'))).events).toEqual(emitted);
  });

  it('are checked when a line is read and read only when their string is first used', async () => {
    const response = `${ANSWER}(as streamed)`;
    const [streamed] = answerEvents(response);
    const [, appended] = answerEvents(ANSWER);
    const { dir, emitted } = await journalOf([streamed!, appended!]);
    const path = join(dir, 'journal.jsonl');
    const { events } = await readJournal(path);
    // Rewritten after the read, before the use: the string read is the file's text then.
    const blob = join(dir, 'blobs', `${blobHash(ANSWER)}.txt`);
    const changed = 'C'.repeat(ANSWER.length);
    await writeFile(blob, changed);
    expect(events[1]).toMatchObject({ message: { parts: [{ type: 'text', text: changed }] } });
    expect(events[0]).toEqual(emitted[0]);
    // A missing blob is found when its line is read, whoever would have used it.
    const missing = join(dir, 'blobs', `${blobHash(response)}.txt`);
    await rm(missing);
    await expect(readJournal(path)).rejects.toThrow(
      new CorruptJournalError(
        path,
        1,
        `a long string cannot be read back: its blob ${missing} is missing`,
      ),
    );
  });

  it('survive a crash between a blob and its line: the blob is unreferenced, the torn line cut, the journal reads on', async () => {
    const { dir, emitted } = await journalOf(answerEvents(ANSWER).slice(0, 2));
    const path = join(dir, 'journal.jsonl');
    const other = 'z'.repeat(BLOB_MIN_CHARS);
    // The writer had written the next blob (and a temporary one) and half of the next line.
    await writeFile(join(dir, 'blobs', `${blobHash(other)}.txt`), other);
    await writeFile(join(dir, 'blobs', `${blobHash('w')}.txt.4242.tmp`), 'w');
    await appendFile(path, '{"seq":3,"time":"2026-01-01T00:00:02.000Z","type":"warning","mess');
    const writer = await openJournal(dir);
    await writer.close();
    expect((await readJournal(path)).events).toEqual(emitted);
    expect((await readdir(join(dir, 'blobs'))).sort()).toEqual(
      [`${blobHash(ANSWER)}.txt`, `${blobHash(other)}.txt`].sort(),
    );
  });

  it('that a later session repeats are not written again', async () => {
    const { dir } = await journalOf(answerEvents(ANSWER).slice(0, 1));
    const blob = join(dir, 'blobs', `${blobHash(ANSWER)}.txt`);
    const written = (await stat(blob)).mtimeMs;
    const writer = await openJournal(dir);
    const bus = new EventBus({ runId: 'r', lastSeq: 1 });
    bus.subscribe(writer.subscriber);
    for (const input of answerEvents(ANSWER).slice(1)) bus.emit(input);
    await writer.close();
    expect((await stat(blob)).mtimeMs).toBe(written);
    expect((await readJournal(join(dir, 'journal.jsonl'))).events).toHaveLength(4);
  });
});
