import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { ProjectNotFoundError } from './project-errors.ts';

/** One configuration file of a project. */
export interface ProjectFile {
  /** Relative to the project root, `/` separators. */
  path: string;
  absolutePath: string;
}

/** A project's root directory and its `.hcl` files in load order. */
export interface ProjectFiles {
  root: string;
  files: ProjectFile[];
}

/**
 * Finds a project's files. A directory is the project root and every `*.hcl` below it is
 * loaded (folders starting with `.` and `node_modules` skipped); a single `.hcl` file makes
 * its directory the root and is loaded alone. Files are sorted by relative path in code-point
 * order so that the load order does not depend on the file system.
 */
export async function findProjectFiles(target: string): Promise<ProjectFiles> {
  const absolute = resolve(target);
  const stats = await stat(absolute).catch((error: unknown) => {
    const code = (error as NodeJS.ErrnoException).code;
    const missing = code === 'ENOENT' || code === 'ENOTDIR';
    throw new ProjectNotFoundError(target, missing ? 'missing' : 'unreadable', { cause: error });
  });
  if (stats.isFile()) {
    if (!absolute.toLowerCase().endsWith('.hcl')) throw new ProjectNotFoundError(target, 'not-hcl');
    const name = basename(absolute);
    return { root: dirname(absolute), files: [{ path: name, absolutePath: absolute }] };
  }
  if (!stats.isDirectory()) throw new ProjectNotFoundError(target, 'unreadable');
  const files: ProjectFile[] = [];
  await collect(absolute, '', files, target);
  if (files.length === 0) throw new ProjectNotFoundError(target, 'empty');
  files.sort((left, right) => compareCodePoints(left.path, right.path));
  return { root: absolute, files };
}

async function collect(directory: string, prefix: string, files: ProjectFile[], target: string) {
  const entries = await readdir(directory, { withFileTypes: true }).catch((error: unknown) => {
    throw new ProjectNotFoundError(target, 'unreadable', { cause: error });
  });
  const nested: Array<Promise<void>> = [];
  for (const entry of entries) {
    const absolutePath = join(directory, entry.name);
    const path = prefix + entry.name;
    // Symbolic links to folders are not followed (no cycles); links to files are loaded.
    if (entry.isDirectory()) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      nested.push(collect(absolutePath, `${path}/`, files, target));
    } else if (
      entry.name.endsWith('.hcl') &&
      (entry.isFile() || (await isLinkToFile(entry, absolutePath)))
    ) {
      files.push({ path, absolutePath });
    }
  }
  await Promise.all(nested);
}

async function isLinkToFile(entry: { isSymbolicLink(): boolean }, path: string): Promise<boolean> {
  if (!entry.isSymbolicLink()) return false;
  const target = await stat(path).catch(() => undefined);
  return target?.isFile() ?? false;
}

/** Orders strings by Unicode code point (JavaScript's `<` compares UTF-16 units). */
export function compareCodePoints(left: string, right: string): number {
  const leftPoints = [...left];
  const rightPoints = [...right];
  const length = Math.min(leftPoints.length, rightPoints.length);
  for (let index = 0; index < length; index++) {
    const difference =
      (leftPoints[index]?.codePointAt(0) ?? 0) - (rightPoints[index]?.codePointAt(0) ?? 0);
    if (difference !== 0) return difference;
  }
  return leftPoints.length - rightPoints.length;
}
