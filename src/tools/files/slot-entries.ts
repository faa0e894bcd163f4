import type { Stats } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { SlotAccess, SlotPath } from './path-guard.ts';
import { isInside, resolveSlotPath } from './path-guard.ts';
import { notRegularFile } from './regular-file.ts';
import type { SlotSet } from './slots.ts';

/** One file or folder inside a slot. */
export interface SlotEntry {
  /** Path relative to the slot root, `/`-separated. */
  relative: string;
  /** Host path, for I/O only. */
  host: string;
  isDirectory: boolean;
  size: number;
}

/** The most entries one walk visits, so a huge tree cannot stall a tool call. */
export const MAX_WALK_ENTRIES = 50_000;

/** A walk's entries in listing order, and whether it stopped at the cap. */
export interface WalkResult {
  entries: SlotEntry[];
  capped: boolean;
}

/** Stats of the resolved path (links followed), or undefined when it does not exist. */
export async function statSlotPath(path: SlotPath): Promise<Stats | undefined> {
  if (path.absent) return undefined;
  return stat(path.host).catch(() => undefined);
}

/** An existing file in a slot with its stats, or the error text the model gets instead. */
export type ExistingFile =
  { ok: true; file: SlotPath; stats: Stats } | { ok: false; error: string };

/**
 * Resolves a tool's `slot` and `path` arguments to an existing file: the path guard first,
 * then "not found" and, for a folder, `folderError` (each tool says what to use instead). A
 * read also refuses what is no regular file (a FIFO would block it); a deletion may remove one.
 */
export async function existingFile(
  slots: SlotSet,
  args: Record<string, unknown>,
  access: SlotAccess,
  folderError: (relative: string) => string,
): Promise<ExistingFile> {
  const resolved = await resolveSlotPath(slots, args.slot as string, args.path as string, access);
  if (!resolved.ok) return resolved;
  const file = resolved.path;
  const stats = await statSlotPath(file);
  if (stats === undefined) {
    return { ok: false, error: `file "${file.relative}" not found in slot "${file.slot.label}"` };
  }
  if (stats.isDirectory()) return { ok: false, error: folderError(file.relative) };
  if (access === 'read' && !stats.isFile()) {
    return { ok: false, error: notRegularFile(file.relative) };
  }
  return { ok: true, file, stats };
}

/** The folder answer of the reading tools: a folder is listed, not read. */
export function useFileList(relative: string): string {
  return `"${relative}" is a folder: use file_list`;
}

function isOnlyFileRoot(path: SlotPath): boolean {
  return path.slot.onlyFile !== undefined && path.relative === '.';
}

/**
 * The entries under a folder, depth first in code-point order of names. Hidden names
 * (leading `.`) are skipped, links pointing outside the slot are skipped, and linked
 * folders are listed but not entered (no cycles, no double counting). Only regular files and
 * folders are entries: a FIFO, socket or device is no file a tool can read.
 */
export async function walkSlotFolder(folder: SlotPath, recursive: boolean): Promise<WalkResult> {
  const result: WalkResult = { entries: [], capped: false };
  if (isOnlyFileRoot(folder)) {
    const onlyFile = folder.slot.onlyFile ?? '';
    const host = join(folder.slot.root, onlyFile);
    const stats = await stat(host).catch(() => undefined);
    if (stats?.isFile() === true) {
      result.entries.push({ relative: onlyFile, host, isDirectory: false, size: stats.size });
    }
    return result;
  }
  const prefix = folder.relative === '.' ? '' : `${folder.relative}/`;
  await walkInto(folder.rootReal, folder.host, prefix, recursive, result);
  return result;
}

async function walkInto(
  rootReal: string,
  host: string,
  prefix: string,
  recursive: boolean,
  result: WalkResult,
): Promise<void> {
  const dirents = await readdir(host, { withFileTypes: true }).catch(() => []);
  const names = dirents
    .filter((dirent) => !dirent.name.startsWith('.'))
    .sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
  for (const dirent of names) {
    if (result.entries.length >= MAX_WALK_ENTRIES) {
      result.capped = true;
      return;
    }
    const entryHost = join(host, dirent.name);
    let target = entryHost;
    if (dirent.isSymbolicLink()) {
      const real = await realpath(entryHost).catch(() => undefined);
      if (real === undefined || !isInside(rootReal, real)) continue;
      target = real;
    }
    const stats = await stat(target).catch(() => undefined);
    if (stats === undefined || !(stats.isFile() || stats.isDirectory())) continue;
    const relative = `${prefix}${dirent.name}`;
    const isDirectory = stats.isDirectory();
    result.entries.push({
      relative,
      host: target,
      isDirectory,
      size: isDirectory ? 0 : stats.size,
    });
    if (isDirectory && recursive && !dirent.isSymbolicLink()) {
      await walkInto(rootReal, target, `${relative}/`, recursive, result);
    }
  }
}
