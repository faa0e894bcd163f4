import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadTextFile } from '../../../src/config/syntax/index.ts';
import { temporaryDirectory } from '../../helpers/temp-dir.ts';

let base: string;
let root: string;

beforeAll(async () => {
  base = await temporaryDirectory('load');
  root = join(base, 'project');
  await mkdir(join(root, 'prompts'), { recursive: true });
  await mkdir(join(root, 'folder.md'));
  await writeFile(join(root, 'prompts', 'analyst.md'), 'You analyse.\n');
  await writeFile(join(root, 'NOTES.TXT'), 'notes');
  await writeFile(join(root, 'data.json'), '{}');
  await writeFile(join(base, 'outside.md'), 'secret');
  await symlink(join(base, 'outside.md'), join(root, 'link.md'));
  await symlink(join(root, 'prompts', 'analyst.md'), join(root, 'inner-link.md'));
});

describe('loadTextFile', () => {
  it.each([
    ['prompts/analyst.md'],
    ['./prompts/analyst.md'],
    ['@/prompts/analyst.md'],
    ['prompts/../prompts/analyst.md'],
    ['inner-link.md'],
  ])('reads %s from the project root', (requested) => {
    const expectedPath = requested === 'inner-link.md' ? 'inner-link.md' : 'prompts/analyst.md';
    expect(loadTextFile(root, requested)).toEqual({
      ok: true,
      text: 'You analyse.\n',
      relativePath: expectedPath,
    });
  });

  it('accepts an upper-case .TXT extension', () => {
    expect(loadTextFile(root, 'NOTES.TXT')).toEqual({
      ok: true,
      text: 'notes',
      relativePath: 'NOTES.TXT',
    });
  });

  it('resolves ../ inside the root against the root, not the working directory', () => {
    expect(loadTextFile(root, 'prompts/../NOTES.TXT')).toMatchObject({
      ok: true,
      relativePath: 'NOTES.TXT',
    });
  });

  it.each([
    ['/x.md', 'load("/x.md"): absolute paths are not allowed'],
    ['C:\\x.md', 'load("C:\\\\x.md"): absolute paths are not allowed'],
    ['../x.md', 'load("../x.md"): escapes the project root: ../x.md'],
    [
      '../project/prompts/analyst.md',
      'load("../project/prompts/analyst.md"): escapes the project root: ../project/prompts/analyst.md',
    ],
    ['@/../x.md', 'load("@/../x.md"): escapes the project root: ../x.md'],
    ['a/../../x.md', 'load("a/../../x.md"): escapes the project root: ../x.md'],
    ['.', 'load("."): resolves to the project root itself: .'],
    ['./', 'load("./"): resolves to the project root itself: .'],
    ['prompts/..', 'load("prompts/.."): resolves to the project root itself: .'],
    ['', 'load(""): resolves to the project root itself: .'],
    ['data.json', 'load("data.json"): only .md and .txt files can be loaded'],
    ['prompts', 'load("prompts"): only .md and .txt files can be loaded'],
    ['x.md', 'load("x.md"): file not found: x.md'],
    ['./missing/y.txt', 'load("./missing/y.txt"): file not found: missing/y.txt'],
    ['link.md', 'load("link.md"): escapes the project root: link.md'],
    ['folder.md', 'load("folder.md"): not a file: folder.md'],
    ['a\0.md', 'load("a\\u0000.md"): the path contains a NUL byte'],
  ])('rejects %j', (requested, message) => {
    const result = loadTextFile(root, requested);
    expect(result).toEqual({ ok: false, message });
    expect(message.includes(base)).toBe(false);
  });
});
