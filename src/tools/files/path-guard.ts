import { lstat, readlink, realpath } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import type { Slot, SlotSet } from './slots.ts';
import { makeDirectory } from '../../base/make-directory.ts';

/** A slot path that passed every check; `host` is for I/O only and never shown to models. */
export interface SlotPath {
  slot: Slot;
  /** Normalised path relative to the slot root, `.` for the root itself. */
  relative: string;
  /** Resolved host path (symlinks resolved for the part that exists). */
  host: string;
  /** Real path of the slot root, for containment checks while walking. */
  rootReal: string;
  /** True when the path cannot exist in the slot (anything but the file of a file input). */
  absent: boolean;
}

export type SlotPathResult = { ok: true; path: SlotPath } | { ok: false; error: string };

/** What the caller means to do, so read-only slots can refuse writes up front. */
export type SlotAccess = 'read' | 'write';

/** The message for any path that leads outside its slot. */
export const ESCAPE_MESSAGE = 'path escapes the slot';

/**
 * Checks a model-supplied `slot` and `path` and resolves them to a host path. Everything is
 * rejected before any disk access other than resolving links: unknown slots, NUL bytes and
 * control characters, absolute paths, writes to read-only slots, `..` leaving the slot, and
 * symbolic links (file or folder, anywhere on the path) whose target lies outside the slot.
 * Error texts name the slot and the relative path only.
 */
export async function resolveSlotPath(
  slots: SlotSet,
  label: string,
  path: string,
  access: SlotAccess,
): Promise<SlotPathResult> {
  const slot = slots.find(label);
  if (slot === undefined) {
    return fail(`unknown slot "${label}"; available slots: ${slots.labels().join(', ')}`);
  }
  if (path.includes('\u0000')) return fail('path contains a NUL byte');
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\u0001-\u001f\u007f]/.test(path)) return fail('path contains a control character');
  if (isAbsolute(path)) return fail('absolute paths are not allowed');
  if (access === 'write' && slot.readOnly) return fail(readOnlyError(slot));
  const segments = normalise(path);
  if (segments === undefined) return fail(ESCAPE_MESSAGE);
  const relative = segments.length === 0 ? '.' : segments.join('/');

  if (slot.onlyFile !== undefined) return resolveOnlyFile(slot, segments, relative);
  let rootReal: string;
  try {
    if (!slot.readOnly) await makeDirectory(slot.root);
    rootReal = await realpath(slot.root);
  } catch {
    return fail(`slot "${slot.label}" is not available`);
  }
  const host = await resolveInside(rootReal, segments);
  if (host === undefined) return fail(ESCAPE_MESSAGE);
  return { ok: true, path: { slot, relative, host, rootReal, absent: false } };
}

/** `slot "input.report" is read-only`, with the reason when the slot has one. */
function readOnlyError(slot: Slot): string {
  const reason = slot.readOnlyReason === undefined ? '' : `: ${slot.readOnlyReason}`;
  return `slot "${slot.label}" is read-only${reason}`;
}

function fail(error: string): SlotPathResult {
  return { ok: false, error };
}

function isAbsolute(path: string): boolean {
  return path.startsWith('/') || path.startsWith('\\') || /^[A-Za-z]:/.test(path);
}

/**
 * Splits on both separators (a backslash is never a name character here, so `..\x` cannot
 * smuggle a parent step) and applies `.` and `..`; undefined when `..` climbs above the root.
 */
function normalise(path: string): string[] | undefined {
  const stack: string[] = [];
  for (const segment of path.split(/[\\/]/)) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (stack.length === 0) return undefined;
      stack.pop();
    } else {
      stack.push(segment);
    }
  }
  return stack;
}

/** True when `candidate` is `root` or below it. */
export function isInside(root: string, candidate: string): boolean {
  return candidate === root || candidate.startsWith(root.endsWith(sep) ? root : root + sep);
}

/**
 * Walks the path one component at a time from the real root. Each existing component is
 * checked with lstat; a link is resolved fully and must stay inside the root; a broken link
 * counts as escaping unless it points inside. The first missing component ends the walk:
 * the rest is appended as is (lexically safe, for file creation).
 */
async function resolveInside(rootReal: string, segments: string[]): Promise<string | undefined> {
  let current = rootReal;
  for (let index = 0; index < segments.length; index++) {
    const candidate = join(current, segments[index] ?? '');
    let isLink: boolean;
    try {
      isLink = (await lstat(candidate)).isSymbolicLink();
    } catch {
      return join(candidate, ...segments.slice(index + 1));
    }
    if (!isLink) {
      current = candidate;
      continue;
    }
    let target: string;
    try {
      target = await realpath(candidate);
    } catch {
      // Broken link: judge it by where it points; creating through it would write there.
      const pointed = resolve(current, await readlink(candidate));
      if (!isInside(rootReal, pointed)) return undefined;
      return join(pointed, ...segments.slice(index + 1));
    }
    if (!isInside(rootReal, target)) return undefined;
    current = target;
  }
  return current;
}

function resolveOnlyFile(slot: Slot, segments: string[], relative: string): SlotPathResult {
  const onlyFile = slot.onlyFile ?? '';
  const host = segments.length === 0 ? slot.root : join(slot.root, onlyFile);
  // Anything but the root and the one file is absent from this slot's point of view.
  const absent = segments.length > 1 || (segments.length === 1 && segments[0] !== onlyFile);
  return { ok: true, path: { slot, relative, host, rootReal: slot.root, absent } };
}
