import { assign, enqueueActions, raise } from 'xstate';
import type { Message } from '../models/model-types.ts';
import { toolResult } from '../tools/tool-result.ts';
import { parseToolArguments } from '../tools/define-tool.ts';
import { submitOutputEnvelope } from '../tools/commander/index.ts';
import type { AnswerParams } from './commander-answers.ts';
import { commanderBase } from './commander-base.ts';
import { batchActions } from './commander-batch.ts';
import type { CommanderContext, InternalToolEvent, QueuedCall } from './commander-context.ts';
import { headArguments, headOf, toolsOf, workingItem } from './commander-context.ts';
import {
  BE_SHORTER_TEXT,
  MAX_OUTPUT_LIMIT_HITS,
  NOT_EXECUTED_TEXT,
  NUDGE_TEXT,
} from './commander-limits.ts';
import { checkedOutput, recordedRoute, taskCompleteArguments } from './commander-rules.ts';
import { completeCurrentSubtask, createPlan, openSubtaskCount } from './plan.ts';
import { applyContextCut } from '../runtime/context-window.ts';
import { contextCutOf } from './commander-context-cut.ts';
import type { ModelTurnOutput } from './turn-types.ts';
import { reasonOf } from '../base/reason.ts';
import { resultFor, toolCallsOf } from './turn-types.ts';

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
function answerHead(context: CommanderContext, outcome: AnswerParams) {
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

/** The results and any note as one user message after the conversation; both cleared. */
function deliveredResults(context: CommanderContext) {
  const notes = context.note === null ? [] : [{ type: 'text' as const, text: context.note }];
  const message: Message = { role: 'user', parts: [...context.results, ...notes] };
  return { messages: [...context.messages, message], results: [], note: null };
}

/** Reply counters after a reply with tool calls (shared: the context never mutates it). */
const CLEAR_STREAKS = Object.freeze({ nudges: 0, outputLimitHits: 0 });

const action = commanderBase.createAction;

/** The id of a sequential commander's dataset cursor child. */
export const CURSOR_ID = 'cursor';

/** The commander's types, actors, guards and actions; the states are in commander.machine.ts. */
export const commanderSetup = commanderBase.extend({
  actions: {
    startBatch: batchActions.startBatch,
    recordBatchResult: batchActions.recordBatchResult,
    finishBatch: batchActions.finishBatch,
    closeOpenCalls: batchActions.closeOpenCalls,
    /** Gives the head call its one result and moves on. */
    answer: action(
      enqueueActions(({ context, enqueue }, params) => {
        // Parameterised actions are typed by the transition objects in answerFor, not here.
        const { call, result, queue, results } = answerHead(context, params as AnswerParams);
        enqueue.assign({ queue, results });
        enqueue({ type: 'emitToolCompleted', params: { call, result } });
      }),
    ),
    /** The model's reply joins the conversation; its calls are parsed into the queue. */
    acceptReply: assign(({ context }, reply: ModelTurnOutput) => acceptedReply(context, reply)),
    /** … a reply with tool calls: the counters of replies in a row start again. */
    acceptCalls: assign(({ context }, reply: ModelTurnOutput) => ({
      ...acceptedReply(context, reply),
      streaks: CLEAR_STREAKS,
    })),
    nudge: assign(({ context }) => ({
      note: NUDGE_TEXT,
      streaks: { nudges: context.streaks.nudges + 1, outputLimitHits: 0 },
    })),
    refuseTruncatedCalls: action(
      enqueueActions(({ context, enqueue }) => {
        const outcome = { content: toolResult.error(NOT_EXECUTED_TEXT), isError: true };
        const results = context.queue.map(({ call }) => resultFor(call, outcome));
        enqueue.assign({
          queue: [],
          results: [...context.results, ...results],
          note: BE_SHORTER_TEXT,
          streaks: { ...context.streaks, outputLimitHits: context.streaks.outputLimitHits + 1 },
        });
        for (const result of results) {
          const call = context.queue.find((queued) => queued.call.id === result.callId)?.call;
          if (call === undefined) continue;
          enqueue({ type: 'emitToolCalled', params: { call } });
          enqueue({ type: 'emitToolCompleted', params: { call, result } });
        }
      }),
    ),
    appendResults: action(
      enqueueActions(({ context, enqueue }) => {
        if (context.results.length === 0 && context.note === null) return;
        const delivered = deliveredResults(context);
        enqueue.assign(delivered);
        enqueue({
          type: 'emitMessageAppended',
          params: { message: delivered.messages[delivered.messages.length - 1] as Message },
        });
      }),
    ),
    /** Prunes or compacts the conversation before the next request (see context-window.ts). */
    cutContext: action(
      enqueueActions(({ context, enqueue }) => {
        const cut = contextCutOf(context);
        if (cut === null) return;
        enqueue.assign({
          messages: applyContextCut(context.messages, cut),
          lastReply: context.lastReply && { ...context.lastReply, usage: null },
        });
        enqueue({ type: 'emitContextCut', params: { cut } });
      }),
    ),
    failTurnCap: assign(({ context }) => ({
      failure: { reason: `more than ${context.limits.maxTurns} model turns` },
    })),
    failStoppedCallingTools: assign({ failure: { reason: 'commander stopped calling tools' } }),
    failOutputLimit: assign({
      failure: {
        reason: `the model's replies hit the output token limit ${MAX_OUTPUT_LIMIT_HITS} times in a row`,
      },
    }),
    /** An actor rejected (provider, tool infrastructure, gate): the commander fails with it. */
    failFromError: assign((_, rejected: { error: unknown }) => ({
      failure: { reason: reasonOf(rejected.error), error: rejected.error },
    })),
    dispatchHead: raise(({ context }): InternalToolEvent => ({
      type: `tool.${headOf(context).call.name}` as InternalToolEvent['type'],
      callId: headOf(context).call.id,
    })),
    acceptPlan: action(
      enqueueActions(({ context, enqueue }) => {
        const plan = createPlan(headArguments(context).subtasks as string[]);
        enqueue.assign({ plan });
        enqueue({ type: 'emitPlanUpdated', params: { plan, index: workingItem(context) } });
      }),
    ),
    completeSubtask: action(
      enqueueActions(({ context, enqueue }) => {
        const step = completeCurrentSubtask(context.plan);
        if (!step.ok) return;
        enqueue.assign({ plan: step.plan, planLocked: true });
        enqueue({
          type: 'emitPlanUpdated',
          params: { plan: step.plan, index: workingItem(context) },
        });
      }),
    ),
    unlockPlan: assign({ planLocked: false }),
    /** The cursor handed out an item: it is the current one. */
    recordHandedOut: assign(({ context }, index: number) => ({
      dataset: {
        current: index,
        handedOut: [...(context.dataset?.handedOut ?? []), index],
        exhausted: false,
      },
    })),
    /** The cursor answered `exhausted`: the last item was left behind. */
    recordExhausted: assign(({ context }) => ({
      dataset: { current: null, handedOut: context.dataset?.handedOut ?? [], exhausted: true },
    })),
    acceptFailure: assign(({ context }) => {
      const args = taskCompleteArguments(context);
      return {
        completion: {
          outcome: 'failed' as const,
          summary: args.summary ?? '',
          reason: args.reason ?? '',
          route: null,
          missionInputs: null,
        },
      };
    }),
    acceptSuccess: assign(({ context }) => {
      const args = taskCompleteArguments(context);
      return {
        completion: {
          outcome: 'succeeded' as const,
          summary: args.summary ?? '',
          reason: null,
          route: recordedRoute(context),
          missionInputs: args.mission_inputs ?? null,
        },
      };
    }),
    askCursor: action(
      enqueueActions(({ context, self, enqueue }) => {
        if (context.dataset === null) return;
        const plan = context.plan ?? [];
        enqueue.sendTo(CURSOR_ID, {
          type: 'cursor.next',
          facts: {
            outputRequired: context.task.outputSchema !== undefined,
            acceptedIndexes: Object.keys(context.itemOutputs).map(Number),
            openSubtasks: openSubtaskCount(plan),
            totalSubtasks: plan.length,
          },
          replyTo: self,
        });
      }),
    ),
    acceptOutput: action(
      enqueueActions(({ context, enqueue }) => {
        const output = checkedOutput(context).value;
        const index = workingItem(context);
        const sequential = context.task.iterator === 'sequential';
        const replaced =
          sequential && index !== null ? index in context.itemOutputs : context.output !== null;
        if (sequential && index !== null)
          enqueue.assign({ itemOutputs: { ...context.itemOutputs, [index]: output } });
        else enqueue.assign({ output: { value: output } });
        enqueue({ type: 'emitOutputSubmitted', params: { output, index, replaced } });
        const fields = {
          ...(index === null ? {} : { index }),
          ...(replaced ? { replaced: true } : {}),
        };
        const answered = answerHead(context, { content: toolResult.ok(fields), isError: false });
        enqueue.assign({ queue: answered.queue, results: answered.results });
        enqueue({
          type: 'emitToolCompleted',
          params: { call: answered.call, result: answered.result },
        });
      }),
    ),
  },
});
