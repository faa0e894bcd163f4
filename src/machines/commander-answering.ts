/**
 * How a commander takes a model reply and answers it: the reply joins the conversation and its
 * calls are queued, each call gets exactly one result (`answer`), and the results go back as one
 * user message, with a nudge or the output-limit note when the reply needs one. Also the checks
 * before each request: the turn cap and the conversation's limits (`pruning`, `compaction`).
 */
import type { Message } from '../models/model-types.ts';
import { reasonOf } from '../base/reason.ts';
import { didYouMean } from '../base/suggest.ts';
import { parseToolArguments } from '../tools/define-tool.ts';
import { submitOutputEnvelope } from '../tools/commander/index.ts';
import { toolResult } from '../tools/tool-result.ts';
import {
  applyContextCut,
  contextCutDue,
  planContextCut,
  type ContextCut,
} from '../runtime/context-window.ts';
import type { CommanderContext, CommanderEvent, QueuedCall } from './commander-context.ts';
import {
  commanderAction,
  commanderAssign,
  headOf,
  MAX_NUDGES,
  MAX_OUTPUT_LIMIT_HITS,
  toolsOf,
} from './commander-context.ts';
import type { ModelTurnOutput } from './turn-types.ts';
import { resultFor, toolCallsOf } from './turn-types.ts';

/** The message sent after a reply without tool calls. */
export const NUDGE_TEXT = 'Call a tool: continue your plan, or call task_complete.';

/** The result of every tool call in a reply cut off by the output-token limit. */
export const NOT_EXECUTED_TEXT = 'not executed: your reply hit the output token limit';

/** The message telling the model to be shorter after such a reply. */
export const BE_SHORTER_TEXT =
  'Your reply hit the output token limit and was cut off. Be shorter: fewer or smaller tool calls per reply.';

/** What an `answer` action gives the head call. */
export interface AnswerParams {
  content: string;
  isError: boolean;
}

type Resolver = (args: { context: CommanderContext; event: CommanderEvent }) => AnswerParams;

/**
 * The `answer` action object with `params` resolved in order with the transition's other
 * actions, so an answer listed after an accepting action reads the updated context.
 */
export const answer = (params: Resolver) => ({ type: 'answer' as const, params });

/** An error result with the text `message` gives. */
export const rejectWith = (message: (context: CommanderContext) => string) =>
  answer(({ context }) => ({ content: toolResult.error(message(context)), isError: true }));

/** An ok result with the fields `fields` gives. */
export const okWith = (fields: (context: CommanderContext) => Record<string, unknown>) =>
  answer(({ context }) => ({ content: toolResult.ok(fields(context)), isError: false }));

/** Announces the head call (`emitToolCalled`) straight from the transition. */
export const announceHead = {
  type: 'emitToolCalled' as const,
  params: ({ context }: { context: CommanderContext }) => ({ call: headOf(context).call }),
};

/** The answers to a call no rule of its tool gets to see. */
export const answerAnyCall = {
  alreadyCompleted: rejectWith(() => 'task already completed'),
  // The suggestion is among the tools this commander is offered now, never another actor's.
  unknownTool: rejectWith((context) => {
    const { name } = headOf(context).call;
    const names = toolsOf(context).map((tool) => tool.name);
    return `unknown tool ${JSON.stringify(name)}${didYouMean(name, names)}; available: ${names.join(', ')}`;
  }),
  invalidArguments: answer(({ context }) => {
    const { call, parsed } = headOf(context);
    const problems = parsed !== null && !parsed.ok ? parsed.problems : [];
    return {
      content: toolResult.error(`invalid arguments for ${call.name}`, { problems }),
      isError: true,
    };
  }),
};

/** Parses every call of a reply up front; parsing is pure, answering happens in order. */
function queueCalls(context: CommanderContext, message: Message): QueuedCall[] {
  return toolCallsOf(message).map((call) => {
    const tool = toolsOf(context).find((candidate) => candidate.name === call.name);
    if (tool === undefined) return { call, parsed: null };
    // submit_output's output is checked by its own guard so problems read relative to it.
    const envelope = tool.name === 'submit_output' ? submitOutputEnvelope : tool;
    return { call, parsed: parseToolArguments(envelope, call.arguments) };
  });
}

/** The head call answered: its result appended, the queue moved on. */
export function answerHead(context: CommanderContext, outcome: AnswerParams) {
  const { call } = headOf(context);
  const result = resultFor(call, outcome);
  return { call, result, queue: context.queue.slice(1), results: [...context.results, result] };
}

/** The context update of a model reply: it joins the conversation, its calls are queued. */
function acceptedReply(context: CommanderContext, reply: ModelTurnOutput) {
  return {
    messages: [...context.messages, reply.message],
    turns: context.turns + 1,
    lastReply: { stopReason: reply.stopReason, usage: reply.usage ?? null },
    queue: queueCalls(context, reply.message),
  };
}

/** Reply counters after a reply with tool calls (shared: the context never mutates it). */
const CLEAR_STREAKS = Object.freeze({ nudges: 0, outputLimitHits: 0 });

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

/** The cut to make before the commander's next request, or null. */
function contextCutOf(context: CommanderContext): ContextCut | null {
  const { limits, lastReply } = context;
  return planContextCut(context.messages, limits.context, lastReply?.usage ?? null, () =>
    commanderState(context),
  );
}

/** `- plan: [completed] Gather sources; [in_progress] Compare them` and so on. */
function commanderState(context: CommanderContext): string[] {
  const lines: string[] = [];
  if (context.plan !== null) {
    const steps = context.plan.map((subtask) => `[${subtask.status}] ${subtask.title}`);
    lines.push(`- plan: ${steps.join('; ')}`);
  }
  if (context.dataset !== null) {
    const { current, handedOut, exhausted } = context.dataset;
    const at = current === null ? 'none' : `item ${current}`;
    lines.push(
      `- dataset: ${handedOut.length} items handed out, working on ${at}${exhausted ? ', no more items' : ''}`,
    );
  }
  const outputs = Object.keys(context.itemOutputs).length;
  if (outputs > 0) lines.push(`- outputs submitted for ${outputs} items`);
  if (context.output !== null) lines.push('- the task output is submitted');
  return lines;
}

/** The guards of taking a reply and of the checks before each request. */
export const answeringGuards = {
  turnCapReached: ({ context }: { context: CommanderContext }) =>
    context.turns >= context.limits.maxTurns,
  /** The commander's `pruning` or `compaction` is due before its next request. */
  contextOverLimit: ({ context }: { context: CommanderContext }) =>
    contextCutDue(context.messages, context.limits.context, context.lastReply?.usage ?? null),
  replyHitOutputLimit: (_: unknown, reply: ModelTurnOutput) => reply.stopReason === 'max_tokens',
  replyHasNoToolCalls: (_: unknown, reply: ModelTurnOutput) =>
    !reply.message.parts.some((part) => part.type === 'tool_call'),
  /** The last nudge allowed was sent (asked in `nudging`, after a reply without tool calls). */
  nudgesUsedUp: ({ context }: { context: CommanderContext }) =>
    context.streaks.nudges >= MAX_NUDGES,
  outputLimitExhausted: ({ context }: { context: CommanderContext }) =>
    context.streaks.outputLimitHits >= MAX_OUTPUT_LIMIT_HITS,
  queueEmpty: ({ context }: { context: CommanderContext }) => context.queue.length === 0,
  taskAlreadyCompleted: ({ context }: { context: CommanderContext }) => context.completion !== null,
  headIsUnknownTool: ({ context }: { context: CommanderContext }) =>
    headOf(context).parsed === null,
  headHasInvalidArguments: ({ context }: { context: CommanderContext }) =>
    headOf(context).parsed?.ok === false,
};

/** The actions of taking a reply, answering its calls and handing the results back. */
export const answeringActions = {
  /** Gives the head call its one result and moves on. */
  answer: commanderAction<AnswerParams>(({ context, enqueue }, params) => {
    const { call, result, queue, results } = answerHead(context, params);
    enqueue.assign({ queue, results });
    enqueue({ type: 'emitToolCompleted', params: { call, result } });
  }),
  /** The model's reply joins the conversation; its calls are parsed into the queue. */
  acceptReply: commanderAssign<ModelTurnOutput>(({ context }, reply) =>
    acceptedReply(context, reply),
  ),
  /** … a reply with tool calls: the counters of replies in a row start again. */
  acceptCalls: commanderAssign<ModelTurnOutput>(({ context }, reply) => ({
    ...acceptedReply(context, reply),
    streaks: CLEAR_STREAKS,
  })),
  nudge: commanderAssign(({ context }: { context: CommanderContext }) => ({
    note: NUDGE_TEXT,
    streaks: { nudges: context.streaks.nudges + 1, outputLimitHits: 0 },
  })),
  refuseTruncatedCalls: commanderAction(({ context, enqueue }) => {
    const outcome = { content: toolResult.error(NOT_EXECUTED_TEXT), isError: true };
    enqueue.assign({
      queue: [],
      results: [...context.results, ...context.queue.map(({ call }) => resultFor(call, outcome))],
      note: BE_SHORTER_TEXT,
      streaks: { ...context.streaks, outputLimitHits: context.streaks.outputLimitHits + 1 },
    });
    for (const { call } of context.queue) {
      enqueue({ type: 'emitToolCalled', params: { call } });
      enqueue({ type: 'emitToolCompleted', params: { call, result: resultFor(call, outcome) } });
    }
  }),
  /** The results and any note as one user message after the conversation; both cleared. */
  appendResults: commanderAction(({ context, enqueue }) => {
    if (context.results.length === 0 && context.note === null) return;
    const notes = context.note === null ? [] : [{ type: 'text' as const, text: context.note }];
    const message: Message = { role: 'user', parts: [...context.results, ...notes] };
    enqueue.assign({ messages: [...context.messages, message], results: [], note: null });
    enqueue({ type: 'emitMessageAppended', params: { message } });
  }),
  /** Prunes or compacts the conversation before the next request (see context-window.ts). */
  cutContext: commanderAction(({ context, enqueue }) => {
    const cut = contextCutOf(context);
    if (cut === null) return;
    enqueue.assign({
      messages: applyContextCut(context.messages, cut),
      lastReply: context.lastReply && { ...context.lastReply, usage: null },
    });
    enqueue({ type: 'emitContextCut', params: { cut } });
  }),
  failTurnCap: commanderAssign(({ context }: { context: CommanderContext }) => ({
    failure: { reason: `more than ${context.limits.maxTurns} model turns` },
  })),
  failStoppedCallingTools: commanderAssign({
    failure: { reason: 'commander stopped calling tools' },
  }),
  failOutputLimit: commanderAssign({
    failure: {
      reason: `the model's replies hit the output token limit ${MAX_OUTPUT_LIMIT_HITS} times in a row`,
    },
  }),
  /** An actor rejected (provider, tool infrastructure, gate): the commander fails with it. */
  failFromError: commanderAssign<{ error: unknown }>((_, rejected) => ({
    failure: { reason: reasonOf(rejected.error), error: rejected.error },
  })),
};
