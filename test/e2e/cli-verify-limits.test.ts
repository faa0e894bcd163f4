/**
 * `sortie verify` on monstrous input through the real CLI: one diagnostic per real problem,
 * source lines cut around the column, output of a bounded size (time and memory are in
 * `bench/verify-monsters.ts`, not asserted here).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sortieSync as sortie } from './cli-child.ts';
import { temporaryDirectorySync } from '../helpers/temp-dir.ts';

const temporary = temporaryDirectorySync('verify-limits');

/** A project of one main.hcl holding `variable "x" { default = VALUE }`. */
function project(name: string, value: string): string {
  const directory = join(temporary, name);
  mkdirSync(directory);
  writeFileSync(join(directory, 'main.hcl'), `variable "x" {\n  default = ${value}\n}\n`);
  return directory;
}

/** What verify prints for one error in variable "x": the diagnostic's lines, then the end. */
function oneError(...lines: string[]): string {
  return [...lines, '  = in variable "x"', '', 'failed: 1 error, 0 warnings', ''].join('\n');
}

// Sequential: each child is awaited synchronously, so concurrency would only stack timeouts.
describe('sortie verify on monstrous input (child process)', () => {
  it('reports 1,000 levels of nesting once, with the line cut around the column', () => {
    const nested = `${'{ a = '.repeat(1000)}1${' }'.repeat(1000)}`;
    expect(sortie(['verify', project('nested', nested)])).toEqual({
      status: 2,
      stdout: oneError(
        'error: syntax error: nested more than 200 levels deep',
        ' --> main.hcl:2:1209',
        '  |',
        `2 | …${'a = { '.repeat(16)}a = …`,
        `  |  ${' '.repeat(30)}^`,
      ),
      stderr: '',
    });
  }, 60_000);

  it('reports a mistake after a 5 MB string once, in a line of about 100 columns', () => {
    const length = 5 * 1024 * 1024;
    const result = sortie(['verify', project('long-string', `"${'a'.repeat(length)}" ; x`)]);
    expect(result).toEqual({
      status: 2,
      stdout: oneError(
        'error: syntax error: invalid character; the ";" character is not valid. Use newlines to separate arguments and blocks, and commas to separate items in collection values.',
        ` --> main.hcl:2:${length + 16}`,
        '  |',
        `2 | …${'a'.repeat(95)}" ; x`,
        `  |  ${' '.repeat(97)}^`,
      ),
      stderr: '',
    });
  }, 60_000);

  it('accepts a valid 5 MB string', () => {
    const result = sortie(['verify', project('valid-long', `"${'a'.repeat(5 * 1024 * 1024)}"`)]);
    expect(result).toEqual({
      status: 0,
      stdout: 'ok: 0 missions, 0 tasks, 0 agents, 0 models used, 0 warnings\n',
      stderr: '',
    });
  }, 60_000);

  it('reports a string left open once', () => {
    const directory = join(temporary, 'open-string');
    mkdirSync(directory);
    writeFileSync(
      join(directory, 'main.hcl'),
      'variable "x" {\n  default = "abc\n  description = "d"\n}\n',
    );
    expect(sortie(['verify', directory])).toEqual({
      status: 2,
      stdout: oneError(
        'error: syntax error: unterminated template string; no closing marker was found for the string.',
        ' --> main.hcl:2:17',
        '  |',
        '2 |   default = "abc',
        '  |                 ^',
      ),
      stderr: '',
    });
  }, 60_000);
  it('reports a chain of 50,000 prefix operators as too deep, not as a stack overflow', () => {
    const result = sortie(['verify', project('unary', `${'!'.repeat(50_000)}true`)]);
    expect(result).toEqual({
      status: 2,
      stdout: oneError(
        'error: syntax error: nested more than 200 levels deep',
        ' --> main.hcl:2:212',
        '  |',
        `2 | …${'!'.repeat(100)}…`,
        `  |  ${' '.repeat(30)}^`,
      ),
      stderr: '',
    });
  }, 60_000);

  it('reports 50,000 splats in a row as too deep, not as a stack overflow', () => {
    const result = sortie(['verify', project('splats', `a${'[*]'.repeat(50_000)}`)]);
    expect(result).toEqual({
      status: 2,
      stdout: oneError(
        'error: syntax error: nested more than 200 levels deep',
        ' --> main.hcl:2:617',
        '  |',
        `2 | …${'[*]'.repeat(33)}[…`,
        `  |  ${' '.repeat(30)}^`,
      ),
      stderr: '',
    });
  }, 60_000);

  it('checks a project of 200,000 top-level blocks', () => {
    const directory = join(temporary, 'many-blocks');
    mkdirSync(directory);
    const blocks = Array.from({ length: 200_000 }, (_, index) => `variable "v${index}" {}\n`);
    writeFileSync(join(directory, 'main.hcl'), blocks.join(''));
    expect(sortie(['verify', directory])).toEqual({
      status: 0,
      stdout: 'ok: 0 missions, 0 tasks, 0 agents, 0 models used, 0 warnings\n',
      stderr: '',
    });
  }, 60_000);
});
