/**
 * A new user's first steps through the real CLI, from a clean folder: `sortie init` makes a
 * project that verifies and runs at once offline with its mock model, and never overwrites.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sortieSync as sortie } from './cli-child.ts';
import { temporaryDirectorySync } from '../helpers/temp-dir.ts';

// Each test starts several CLI children, slow on a loaded machine.
describe('sortie init (child process)', { timeout: 120_000 }, () => {
  it('makes a project that verifies and runs offline with its mock model, with no key', () => {
    const demo = join(temporaryDirectorySync('init'), 'demo');
    expect(sortie(['init', demo])).toEqual({
      status: 0,
      stdout: [
        `created ${demo}/main.hcl, ${demo}/mock.yaml, ${demo}/README.md, ${demo}/.gitignore`,
        `try it offline: sortie run ${demo} --mock-model ${demo}/mock.yaml`,
        `with a model:   OPENAI_API_KEY=... sortie run ${demo}`,
        '',
      ].join('\n'),
      stderr: '',
    });
    expect(readdirSync(demo).sort()).toEqual(['.gitignore', 'README.md', 'main.hcl', 'mock.yaml']);
    expect(sortie(['verify', demo]).status).toBe(0);
    const run = sortie(['run', demo, '--mock-model', join(demo, 'mock.yaml')], {
      OPENAI_API_KEY: undefined,
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout.slice(run.stdout.indexOf('\ntasks:\n') + 1)).toBe(
      [
        'tasks:',
        '  greet  succeeded  The greeter wrote: Hello, world! Good to have you here.',
        'costs:',
        '  openai.gpt_4o_mini  5 requests  132 tokens  <$0.0001',
        '  total               5 requests  132 tokens  <$0.0001',
        '',
      ].join('\n'),
    );
  });

  it('refuses to overwrite a file, naming it, and writes nothing (exit 2)', () => {
    const folder = temporaryDirectorySync('init');
    writeFileSync(join(folder, 'main.hcl'), '# mine\n');
    expect(sortie(['init', folder])).toEqual({
      status: 2,
      stdout: '',
      stderr: `error: sortie init does not overwrite files: ${folder}/main.hcl exists; nothing was written\nhint: give a new or empty folder: sortie init DIR\n`,
    });
    expect(readdirSync(folder)).toEqual(['main.hcl']);
  });
});
