import type { Message } from '../../base/conversation.ts';
import type { ToolOutcome } from '../builtins/agent-tool.ts';
import { toolResult } from '../tool-result.ts';
import type { ResultStore, StoredResult } from './result-store.ts';
import { describeResult } from './result-store.ts';
import { RESULT_TOOL_DEFINITIONS } from './result-tools.ts';

/** Arrays with at least this many items are stored whatever their size. */
export const MIN_INTERCEPTED_ITEMS = 20;
/** The default threshold: 16,000 tokens × 4 bytes. */
export const DEFAULT_THRESHOLD_BYTES = 64_000;
/** Items shown in an array summary. */
export const SAMPLE_ITEMS = 5;
/** Characters shown in a text summary. */
export const PREVIEW_CHARS = 2_000;
/** Keys shown in an object summary; more are counted in `total_keys`. */
export const MAX_SUMMARY_KEYS = 100;

/** The result tools themselves are never intercepted (their pages would be stored again). */
export const RESULT_TOOL_NAMES: ReadonlySet<string> = new Set(
  RESULT_TOOL_DEFINITIONS.map((definition) => definition.name),
);

/** Options of one interception check. */
export interface InterceptOptions {
  /** `tool_response.max_tokens` × 4; default 64,000. */
  thresholdBytes?: number;
  store: ResultStore;
  /** The tool that produced the result; result tools pass through. */
  toolName?: string;
}

/** The outcome the model sees, and the stored result when the original was intercepted. */
export interface InterceptedOutcome {
  outcome: ToolOutcome;
  stored?: StoredResult;
}

/**
 * Stores a large successful text result and replaces it with a `partial` summary: JSON
 * arrays of 20 or more items, and anything over the threshold (UTF-8 bytes). When the
 * outcome names a payload (an HTTP body), the payload is what is judged and stored, and its
 * `beside` fields stay in the summary. Errors, rich content and small results pass through.
 */
export async function interceptLargeResult(
  outcome: ToolOutcome,
  options: InterceptOptions,
): Promise<InterceptedOutcome> {
  if (outcome.isError || typeof outcome.content !== 'string') return { outcome };
  if (options.toolName !== undefined && RESULT_TOOL_NAMES.has(options.toolName)) return { outcome };
  const text = outcome.payload?.text ?? outcome.content;
  const threshold = options.thresholdBytes ?? DEFAULT_THRESHOLD_BYTES;
  const oversized = Buffer.byteLength(outcome.content, 'utf8') > threshold;
  if (!oversized && !isLongArray(text)) return { outcome };
  const stored = await options.store.save(text);
  const content = partialSummary(stored, outcome.payload?.beside);
  return { outcome: { content, isError: false }, stored };
}

/** Cheap pre-check before parsing: only text that starts like an array can be one. */
function isLongArray(text: string): boolean {
  if (!text.trimStart().startsWith('[')) return false;
  const described = describeResult('', text);
  return (
    described.type === 'array' && (described.value as unknown[]).length >= MIN_INTERCEPTED_ITEMS
  );
}

/** The `{"status":"partial",...}` text the model sees instead of a stored result. */
export function partialSummary(stored: StoredResult, beside: Record<string, unknown> = {}): string {
  const head = { result_id: stored.id, type: stored.type, ...beside };
  if (stored.type === 'array') {
    const items = stored.value as unknown[];
    return toolResult.status('partial', {
      ...head,
      total_items: items.length,
      sample: items.slice(0, SAMPLE_ITEMS),
    });
  }
  if (stored.type === 'object') {
    const keys = Object.keys(stored.value as Record<string, unknown>);
    const shown = keys.slice(0, MAX_SUMMARY_KEYS);
    const extra = keys.length > shown.length ? { total_keys: keys.length } : {};
    return toolResult.status('partial', {
      ...head,
      keys: shown,
      ...extra,
      total_bytes: stored.totalBytes,
    });
  }
  return toolResult.status('partial', {
    ...head,
    preview: stored.text.slice(0, PREVIEW_CHARS),
    total_bytes: stored.totalBytes,
  });
}

/**
 * Whether a tool result's text is the `partial` summary of an intercepted result (a resumed
 * conversation that holds one offers the result tools again).
 */
export function summarizesStoredResult(content: unknown): boolean {
  if (typeof content !== 'string' || !content.startsWith('{"status":"partial"')) return false;
  try {
    const parsed = JSON.parse(content) as { result_id?: unknown };
    return typeof parsed.result_id === 'string';
  } catch {
    return false;
  }
}

/**
 * Whether a conversation shows the summary of a stored large result: its actor had the result
 * tools then, and keeps them when it is resumed (a summary pruned away took its id with it).
 */
export function holdsStoredResult(messages: readonly Message[]): boolean {
  return messages.some((message) =>
    message.parts.some(
      (part) => part.type === 'tool_result' && summarizesStoredResult(part.content),
    ),
  );
}
