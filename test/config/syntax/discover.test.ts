import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  compareCodePoints,
  findProjectFiles,
  ProjectNotFoundError,
} from '../../../src/config/syntax/index.ts';
import { temporaryDirectory } from '../../helpers/temp-dir.ts';

let base: string;

async function write(path: string, text = '') {
  await mkdir(join(base, path, '..'), { recursive: true });
  await writeFile(join(base, path), text);
}

beforeAll(async () => {
  base = await temporaryDirectory('discover');
  for (const path of [
    'p/main.hcl',
    'p/b/z.hcl',
    'p/b/a.hcl',
    'p/B.hcl',
    'p/a-b.hcl',
    'p/a/b.hcl',
    'p/.hidden/x.hcl',
    'p/node_modules/y.hcl',
    'p/notes.md',
    'p/upper.HCL',
    'p/deep/er/est.hcl',
    'empty/readme.md',
    'single/one.hcl',
    'single/two.hcl',
    'single/notes.txt',
  ]) {
    await write(path);
  }
  await symlink(join(base, 'p', 'b'), join(base, 'p', 'linked-dir'));
  await symlink(join(base, 'single', 'one.hcl'), join(base, 'p', 'linked.hcl'));
});

describe('findProjectFiles', () => {
  it('lists every .hcl file below the root, sorted, skipping hidden folders and node_modules', async () => {
    const { root, files } = await findProjectFiles(join(base, 'p'));
    expect(root).toBe(join(base, 'p'));
    expect(files.map((file) => file.path)).toEqual([
      'B.hcl',
      'a-b.hcl',
      'a/b.hcl',
      'b/a.hcl',
      'b/z.hcl',
      'deep/er/est.hcl',
      'linked.hcl',
      'main.hcl',
    ]);
    expect(files[0]?.absolutePath).toBe(join(base, 'p', 'B.hcl'));
  });

  it('makes the directory of a single file the root and loads only that file', async () => {
    expect(await findProjectFiles(join(base, 'single', 'two.hcl'))).toEqual({
      root: join(base, 'single'),
      files: [{ path: 'two.hcl', absolutePath: join(base, 'single', 'two.hcl') }],
    });
  });

  it.each([
    ['empty', 'empty', 'no .hcl files in DIR'],
    ['missing', 'missing', 'no such file or directory: DIR'],
    ['single/one.hcl/below', 'missing', 'no such file or directory: DIR'],
    ['single/notes.txt', 'not-hcl', 'not an .hcl file: DIR'],
  ])('rejects %s', async (relative, problem, message) => {
    const target = join(base, relative);
    const error = await findProjectFiles(target).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProjectNotFoundError);
    expect(error).toMatchObject({ path: target, problem, message: message.replace('DIR', target) });
  });
});

describe('compareCodePoints', () => {
  it('orders by code point, not UTF-16 unit', () => {
    const names = ['\u{1F600}.hcl', '\uFF5E.hcl', 'a.hcl'];
    expect([...names].sort(compareCodePoints)).toEqual(['a.hcl', '\uFF5E.hcl', '\u{1F600}.hcl']);
    expect([...names].sort()).toEqual(['a.hcl', '\u{1F600}.hcl', '\uFF5E.hcl']);
  });
});
