import { compilePattern, type SearchPattern } from './search-pattern.ts';
import { resolveSlotPath, type SlotPath } from './path-guard.ts';
import type { SlotSet } from './slots.ts';

/** The `slot` argument's schema, naming the mission's slots. */
export function slotProperty(slots: SlotSet): Record<string, unknown> {
  return { type: 'string', description: `Slot: ${slots.labels().join(', ')}` };
}

/** A path argument's schema. */
export function pathProperty(description: string): Record<string, unknown> {
  return { type: 'string', description };
}

/** `512 B`, `1.2 KB`, `3.4 MB`, `1.0 GB` (powers of 1024). */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/**
 * The footer after a paged listing: the window shown, the total, and how to get more, so a
 * model never mistakes a page for the whole.
 */
export function pagingFooter(
  noun: { one: string; many: string },
  total: number,
  offset: number,
  shown: number,
): string {
  const plural = (count: number): string => `${count} ${count === 1 ? noun.one : noun.many}`;
  if (total === 0) return `(no ${noun.many})`;
  if (shown === 0) return `(no ${noun.many} at offset ${offset}; ${plural(total)} in total)`;
  if (offset === 0 && shown === total) return `(${plural(total)})`;
  const last = offset + shown;
  const more = last < total ? `; call again with offset ${last} for more` : '';
  return `(showing ${offset + 1}-${last} of ${plural(total)}${more})`;
}

/** The `pattern` argument's description: the syntax a model may use (search-pattern.ts). */
export const PATTERN_DESCRIPTION =
  'Regular expression in RE2 syntax (no backreferences or lookaround; (?i) makes it case-insensitive)';

/** A text file larger than this must be read with a cap. */
export const MAX_UNCAPPED_READ_BYTES = 10 * 1024 * 1024;

/** The errno code of a failed file operation (never its message, which holds host paths). */
export function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'unknown error';
}

/** What `file_search` and `file_grep` share: the regex, the page wanted and where to start. */
export interface SearchRequest {
  pattern: SearchPattern;
  limit: number;
  offset: number;
  /** The `path` argument (default the slot root), through the path guard. */
  start: SlotPath;
}

/** Reads a search tool's arguments, or the error text for the model. */
export async function searchRequest(
  slots: SlotSet,
  args: Record<string, unknown>,
): Promise<SearchRequest | string> {
  const pattern = compilePattern(args.pattern as string);
  if (typeof pattern === 'string') return pattern;
  const resolved = await resolveSlotPath(
    slots,
    args.slot as string,
    (args.path as string | undefined) ?? '',
    'read',
  );
  if (!resolved.ok) return resolved.error;
  return {
    pattern,
    limit: (args.limit as number | undefined) ?? 50,
    offset: (args.offset as number | undefined) ?? 0,
    start: resolved.path,
  };
}
