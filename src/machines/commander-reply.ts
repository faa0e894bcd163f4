/**
 * The actions of a commander's transitions that accept a model reply: the reply joins the
 * context, then its message is reported.
 */
import type { ModelTurnOutput } from './turn-types.ts';

type ReplyEvent = { event: { output: ModelTurnOutput } };

/** The reply the `modelTurn` actor's done event carries, as the params of a guard or an action. */
export const replyOf = ({ event }: ReplyEvent): ModelTurnOutput => event.output;

const reportReply = {
  type: 'emitMessageAppended',
  params: ({ event }: ReplyEvent) => ({ message: event.output.message }),
} as const;

/** A reply without calls to run (a nudge, the output-limit note, or the commander fails). */
export const acceptReplyActions = [{ type: 'acceptReply', params: replyOf }, reportReply] as const;

/** A reply whose calls run: one context update, the reply counters cleared with it. */
export const acceptCallsActions = [{ type: 'acceptCalls', params: replyOf }, reportReply] as const;
