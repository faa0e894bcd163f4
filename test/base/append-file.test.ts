import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppendFile } from '../../src/base/append-file.ts';
import { temporaryDirectorySync } from '../helpers/temp-dir.ts';

/** A fresh AppendFile and a way to read its file from disk without going through it. */
function appendFile(): { file: AppendFile; onDisk: () => string } {
  const parent = temporaryDirectorySync('append');
  const file = new AppendFile(parent, 'texts-', 'texts.jsonl');
  const onDisk = () => {
    const [folder] = readdirSync(parent);
    return readFileSync(join(parent, folder!, 'texts.jsonl'), 'utf8');
  };
  return { file, onDisk };
}

describe('AppendFile', () => {
  it('gathers appends in memory and writes them when a read needs one of them', () => {
    const { file, onDisk } = appendFile();
    const first = file.append('{"a":1}');
    const second = file.append('«ü»');
    expect([first, second]).toEqual([
      { offset: 0, length: 7 },
      { offset: 7, length: 6 },
    ]);
    expect(onDisk()).toBe('');
    expect(file.read(second)).toBe('«ü»');
    expect(onDisk()).toBe('{"a":1}«ü»');
    expect(file.read(first)).toBe('{"a":1}');
    file.dispose();
  });

  it('writes at once when 64 KB wait, and keeps offsets across writes', () => {
    const { file, onDisk } = appendFile();
    const big = 'x'.repeat(64 * 1024);
    file.append('head');
    const bigPosition = file.append(big);
    expect(onDisk()).toBe(`head${big}`);
    const tail = file.append('tail');
    expect(tail).toEqual({ offset: 4 + big.length, length: 4 });
    expect(file.read(tail)).toBe('tail');
    expect(file.read(bigPosition)).toBe(big);
    expect(file.readAll().toString('utf8')).toBe(`head${big}tail`);
    file.dispose();
  });
});
