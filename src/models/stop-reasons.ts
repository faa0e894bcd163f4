/**
 * Replies a provider declined (refused, blocked, filtered, or broke with a malformed tool
 * call) and the error each becomes: such a reply is never an ordinary empty answer, the turn
 * that got it fails with a message naming the stop reason (docs/decisions.md, "Declined
 * replies").
 */
import { SortieError } from '../base/errors.ts';
import type { ModelResponse, StopReason } from './model-types.ts';

/** The stop reasons that end a turn as a failure. */
export type DeclinedStopReason = Extract<
  StopReason,
  'refusal' | 'blocked' | 'safety' | 'malformed_tool_call'
>;

const DECLINED_TEXT: Readonly<Record<DeclinedStopReason, string>> = {
  refusal: 'the model refused',
  blocked: 'the provider blocked the prompt',
  safety: "the provider's safety filter stopped the reply",
  malformed_tool_call: 'the model produced a malformed tool call',
};

/** True for a stop reason that fails the turn. */
export function isDeclined(stopReason: StopReason): stopReason is DeclinedStopReason {
  return Object.hasOwn(DECLINED_TEXT, stopReason);
}

/** One line for people: what happened, the stop reason, and what the provider said. */
export function declinedMessage(stopReason: DeclinedStopReason, detail?: string): string {
  const head = `${DECLINED_TEXT[stopReason]} (stop reason "${stopReason}")`;
  return detail === undefined || detail === '' ? head : `${head}: ${detail}`;
}

/** A turn whose reply the provider declined; `message` names the stop reason. */
export class ModelDeclinedError extends SortieError {
  constructor(
    readonly stopReason: DeclinedStopReason,
    readonly detail: string | undefined,
  ) {
    super(declinedMessage(stopReason, detail));
  }
}

/** The error a declined reply fails its turn with, or undefined for an ordinary reply. */
export function declinedError(response: ModelResponse): ModelDeclinedError | undefined {
  return isDeclined(response.stopReason)
    ? new ModelDeclinedError(response.stopReason, response.stopDetail)
    : undefined;
}
