/**
 * A run is wired in one place (run/wired-run.ts) for `sortie run`, `resume`, `fork`, the
 * library and served runs: nothing else starts a run or opens its journal or model clients,
 * so a change to how runs are wired reaches every way of starting one.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '../../src');

/** The source files (relative to src/) that call `name(` outside its own definition. */
function callersOf(name: string): string[] {
  const call = new RegExp(`(?<!function )\\b${name}\\(`);
  return readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .filter((path) => /\.tsx?$/.test(path))
    .filter((path) => call.test(readFileSync(join(SRC, path), 'utf8')))
    .sort();
}

describe('the run wiring', () => {
  it('is the only caller of startRun, lazyJournal and runClients', () => {
    expect({
      startRun: callersOf('startRun'),
      lazyJournal: callersOf('lazyJournal'),
      runClients: callersOf('runClients'),
    }).toEqual({
      startRun: ['run/wired-run.ts'],
      lazyJournal: ['run/wired-run.ts'],
      runClients: ['run/wired-run.ts'],
    });
  });
});
