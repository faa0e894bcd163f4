/**
 * What the agent and the commander hand the step gate before a round's failed tool results go
 * back to the model (`--break error`): the failed results, in call order.
 */
import type { ToolResultPart } from '../models/model-types.ts';

/** What a `failureGate` actor receives. */
export interface FailureGateInput {
  failures: ToolResultPart[];
}

/** The error results among a round's results, in call order. */
export function failedResults(results: readonly (ToolResultPart | undefined)[]): ToolResultPart[] {
  return results.filter((result): result is ToolResultPart => result?.isError === true);
}

/** The text of a result as the person reads it at the hold (rich parts by their text). */
export function resultText(result: ToolResultPart): string {
  if (typeof result.content === 'string') return result.content;
  return result.content
    .map((part) => (part.type === 'text' ? part.text : `[${part.type}]`))
    .join('\n');
}
