export { ResultStore, describeResult } from './result-store.ts';
export type { StoredResult, StoredResultType } from './result-store.ts';
export {
  interceptLargeResult,
  partialSummary,
  DEFAULT_THRESHOLD_BYTES,
  MIN_INTERCEPTED_ITEMS,
  RESULT_TOOL_NAMES,
  holdsStoredResult,
} from './intercept.ts';
export type { InterceptOptions, InterceptedOutcome } from './intercept.ts';
export {
  resultToolsFor,
  MAX_CHUNK_CHARS,
  MAX_ITEMS_PER_PAGE,
  RESULT_TOOL_DEFINITIONS,
} from './result-tools.ts';
export { lookupDotPath } from './dot-path.ts';
