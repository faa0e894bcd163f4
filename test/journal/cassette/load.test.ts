import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCassette } from '../../../src/journal/cassette/load.ts';
import { writeCassette } from '../../../src/journal/cassette/cassette-writer.ts';
import type { Cassette, CassetteEntry } from '../../../src/journal/cassette/cassette-format.ts';
import {
  CassetteNotFoundError,
  CorruptCassetteError,
} from '../../../src/journal/journal-errors.ts';
import { UsageError } from '../../../src/base/errors.ts';
import { temporaryDirectory } from '../../helpers/temp-dir.ts';

const header = '{"cassette":1,"note":"hand-written","created":"2026-01-01T00:00:00.000Z"}';

function entry(actor: string, turn: number): CassetteEntry {
  return {
    actor,
    turn,
    model: { provider: 'openai', config: 'openai', key: 'gpt', apiName: 'gpt-4o' },
    request: { system: 's', messages: [], tools: [], reasoning: null },
    response: {
      message: { role: 'assistant', parts: [{ type: 'text', text: `${actor} ${turn}` }] },
      stopReason: 'end',
      usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
      model: 'gpt-4o',
      warnings: [],
    },
  };
}

async function cassetteFile(lines: string[], end = '\n'): Promise<string> {
  const path = join(await temporaryDirectory(), 'cassette.jsonl');
  await writeFile(path, lines.join('\n') + end);
  return path;
}

describe('loadCassette', () => {
  it('reads back what writeCassette wrote', async () => {
    const cassette: Cassette = {
      header: { cassette: 1, note: 'hand-written', created: '2026-01-01T00:00:00.000Z' },
      entries: [entry('commander:a', 1), entry('commander:a', 2)],
    };
    const path = join(await temporaryDirectory(), 'nested', 'cassette.jsonl');
    await writeCassette(path, cassette);
    expect(await loadCassette(path)).toEqual({ ...cassette, torn: false });
  });

  it('says when the file is missing, as a usage error', async () => {
    const path = join(await temporaryDirectory(), 'none.jsonl');
    const error = await loadCassette(path).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CassetteNotFoundError);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe(`cassette not found: ${path}`);
  });

  it('names the line of a corrupt entry', async () => {
    const path = await cassetteFile([
      header,
      JSON.stringify(entry('a', 1)),
      '{"actor":',
      JSON.stringify(entry('a', 2)),
    ]);
    const error = await loadCassette(path).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CorruptCassetteError);
    expect((error as CorruptCassetteError).line).toBe(3);
    expect((error as CorruptCassetteError).message).toMatch(
      new RegExp(`^cassette .* is corrupt at line 3: not valid JSON`),
    );
  });

  it('checks the entry shape', async () => {
    const bad = { ...entry('a', 1), turn: 0 };
    const path = await cassetteFile([header, JSON.stringify(bad)]);
    await expect(loadCassette(path)).rejects.toMatchObject({
      line: 2,
      detail: 'entry "turn" must be a whole number from 1',
    });
  });

  it('requires the header first and a known version', async () => {
    await expect(
      loadCassette(await cassetteFile([JSON.stringify(entry('a', 1))])),
    ).rejects.toMatchObject({
      line: 1,
      detail: 'the first line must be the cassette header {"cassette":1,...}',
    });
    await expect(loadCassette(await cassetteFile(['{"cassette":2}']))).rejects.toMatchObject({
      detail: 'unsupported cassette version 2 (this sortie reads 1)',
    });
    await expect(loadCassette(await cassetteFile([''], ''))).rejects.toMatchObject({
      line: 1,
      detail: 'the file is empty (no cassette header)',
    });
  });

  it('refuses the same actor turn twice', async () => {
    const path = await cassetteFile([
      header,
      JSON.stringify(entry('a', 1)),
      JSON.stringify(entry('a', 1)),
    ]);
    await expect(loadCassette(path)).rejects.toMatchObject({
      line: 3,
      detail: 'turn 1 of actor a appears twice',
    });
  });

  it('ignores a torn last line of an interrupted recording', async () => {
    const path = await cassetteFile(
      [header, JSON.stringify(entry('a', 1)), '{"actor":"a","tu'],
      '',
    );
    const cassette = await loadCassette(path);
    expect(cassette.torn).toBe(true);
    expect(cassette.entries.map((item) => item.turn)).toEqual([1]);
  });
});
