/**
 * Problems in a `--mock-model FILE` through the real CLI: each is a usage error (exit 2) or a
 * failed task whose message names what is wrong in full, with no stack trace.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sortieSync as sortie } from './cli-child.ts';

function mockFile(text: string): { path: string; directory: string } {
  const directory = mkdtempSync(join(tmpdir(), 'sortie-mock-file-'));
  const path = join(directory, 'mock.yaml');
  writeFileSync(path, text);
  return { path, directory };
}

/** Seven levels of nine aliases each: 9^7 strings once expanded ("billion laughs"). */
const ALIAS_BOMB = [
  'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  ...['b', 'c', 'd', 'e', 'f', 'g'].map(
    (name, index) => `${name}: &${name} [${Array(9).fill(`*${'abcdef'[index]}`).join(',')}]`,
  ),
  '',
].join('\n');

// Each test starts a CLI child, slow on a loaded machine.
describe('sortie run --mock-model with a faulty file (child process)', { timeout: 120_000 }, () => {
  it('rejects a YAML alias bomb as a usage error (exit 2), not an internal error', () => {
    const { path } = mockFile(ALIAS_BOMB);
    expect(sortie(['run', 'examples/hello', '--mock-model', path])).toEqual({
      status: 2,
      stdout: '',
      stderr: `error: mock model ${path}: its aliases (*name) expand past the limit of 100 values; write the answers out instead\nhint: the format is in docs/testing.md ("Mock models")\n`,
    });
  });
});
