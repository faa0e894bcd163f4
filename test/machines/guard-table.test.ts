/**
 * docs/machines.md lists every named guard of every machine with the test that fails when the
 * guard is negated (found by test/machines/guard-negation/run.ts): a guard added without a row,
 * a row for a removed guard, or a row naming a test that does not exist fails here.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { everyGuard } from './guard-negation/machines.ts';

const ROOT = join(import.meta.dirname, '../..');

interface Row {
  guard: string;
  file: string;
  test: string;
}

/** The guard table's rows: `| machine | guard | rule | file: test |`. */
function tableRows(): Row[] {
  const text = readFileSync(join(ROOT, 'docs/machines.md'), 'utf8');
  return text
    .split('\n')
    .filter((line) => /^\| `\w+` \| `\w+` \|/.test(line))
    .map((line) => {
      const [machine = '', guard = '', , caughtBy = ''] = line
        .split(' | ')
        .map((cell) => cell.replace(/^\| /, '').replace(/ \|$/, ''));
      const [, file = '', test = ''] = /^`([^`]+)`: (.+)$/.exec(caughtBy) ?? [];
      return { guard: `${strip(machine)}:${strip(guard)}`, file, test };
    });
}

const strip = (cell: string): string => cell.replaceAll('`', '');

describe('the guard table of docs/machines.md', () => {
  it('has one row for each named guard of each machine', () => {
    expect(
      tableRows()
        .map((row) => row.guard)
        .sort(),
    ).toEqual(everyGuard().sort());
  });

  it('names, for each guard, a test that exists', () => {
    const missing = tableRows().filter((row) => {
      const path = join(ROOT, row.file);
      return !existsSync(path) || !readFileSync(path, 'utf8').includes(row.test);
    });
    expect(missing).toEqual([]);
  });
});
