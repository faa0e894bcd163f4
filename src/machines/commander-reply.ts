/**
 * The actions of a commander's transitions that accept a model reply (the reply joins the
 * context, then its message is reported) and that hand a reply's results back to the model.
 */
import type { Message } from '../models/model-types.ts';
import type { CommanderContext } from './commander-context.ts';
import type { ModelTurnOutput } from './turn-types.ts';

type ReplyEvent = { event: { output: ModelTurnOutput } };

/** The reply a `modelTurn.done` event carries, as the params of a guard or an action. */
export const replyOf = ({ event }: ReplyEvent): ModelTurnOutput => event.output;

const reportReply = {
  type: 'emitMessageAppended',
  params: ({ event }: ReplyEvent) => ({ message: event.output.message }),
} as const;

/** A reply without calls to run (a nudge, the output-limit note, or the commander fails). */
export const acceptReplyActions = [{ type: 'acceptReply', params: replyOf }, reportReply] as const;

/** A reply whose calls run: one context update, the reply counters cleared with it. */
export const acceptCallsActions = [{ type: 'acceptCalls', params: replyOf }, reportReply] as const;

/** The results (and any note) joined the conversation in one update; that message is reported. */
export const deliverResultsActions = [
  'deliverResults',
  {
    type: 'emitMessageAppended',
    params: ({ context }: { context: CommanderContext }) => ({
      message: context.messages[context.messages.length - 1] as Message,
    }),
  },
] as const;
