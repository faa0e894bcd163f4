import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { resolveProjectFolder } from '../../../src/config/syntax/index.ts';
import { temporaryDirectory } from '../../helpers/temp-dir.ts';

let base: string;
let root: string;

beforeAll(async () => {
  base = await temporaryDirectory('folder');
  root = join(base, 'project');
  await mkdir(join(root, 'reference', 'kb'), { recursive: true });
  await mkdir(join(root, 'missions', 'kb'), { recursive: true });
  await mkdir(join(base, 'outside'));
  await writeFile(join(root, 'notes.md'), 'notes');
  await symlink(join(base, 'outside'), join(root, 'escape'));
  await symlink(join(root, 'reference', 'kb'), join(root, 'kb-link'));
});

describe('resolveProjectFolder', () => {
  it.each([
    ['main.hcl', 'reference/kb', 'reference/kb'],
    ['main.hcl', './reference/kb/', 'reference/kb'],
    ['missions/m.hcl', 'kb', 'missions/kb'],
    ['missions/m.hcl', '../reference/kb', 'reference/kb'],
    ['missions/m.hcl', '@/reference/kb', 'reference/kb'],
    ['main.hcl', 'kb-link', 'kb-link'],
  ])('resolves %s + %j to %s', (fromFile, requested, relativePath) => {
    expect(resolveProjectFolder(root, fromFile, requested)).toEqual({ ok: true, relativePath });
  });

  it.each([
    ['main.hcl', '/tmp', 'path "/tmp": absolute paths are not allowed'],
    ['main.hcl', '../x', 'path "../x": escapes the project root: ../x'],
    ['missions/m.hcl', '../../x', 'path "../../x": escapes the project root: ../x'],
    ['missions/m.hcl', '..', 'path "..": resolves to the project root itself: .'],
    ['main.hcl', '@/', 'path "@/": resolves to the project root itself: .'],
    ['main.hcl', 'missing', 'path "missing": folder not found: missing'],
    ['main.hcl', 'notes.md', 'path "notes.md": not a folder: notes.md'],
    ['main.hcl', 'escape', 'path "escape": escapes the project root: escape'],
    ['main.hcl', '', 'path "": the path is empty'],
  ])('refuses %s + %j', (fromFile, requested, message) => {
    expect(resolveProjectFolder(root, fromFile, requested)).toEqual({ ok: false, message });
  });
});
