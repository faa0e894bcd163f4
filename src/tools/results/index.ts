export { ResultStore } from './result-store.ts';
export { interceptLargeResult, RESULT_TOOL_NAMES, holdsStoredResult } from './intercept.ts';
export { resultToolsFor, RESULT_TOOL_DEFINITIONS } from './result-tools.ts';
