import { assign, enqueueActions, fromPromise, setup } from 'xstate';
import type { Message, ToolCallPart, ToolResultPart } from '../models/model-types.ts';
import type {
  MessageAppendedParams,
  ToolCalledParams,
  ToolCompletedParams,
} from './effect-params.ts';
import { ActorNotProvidedError, noEffect } from './effect-params.ts';
import type { ModelTurnInput, ModelTurnOutput, ToolOutcome } from './turn-types.ts';
import { reasonOf, resultFor, textOf, toolCallsOf } from './turn-types.ts';

/** The default `max_turns` of an agent (runtime.md, "Agent loop"). */
export const DEFAULT_AGENT_MAX_TURNS = 50;

export interface AgentInput {
  /** The conversation so far, ending with the task as a user message. */
  messages: Message[];
  maxTurns?: number;
}

/** What an agent's `executeTool` actor receives: the raw call (the wiring validates it). */
export interface AgentToolInput {
  call: ToolCallPart;
}

export interface AgentContext {
  messages: Message[];
  turns: number;
  maxTurns: number;
  /** Calls of the current reply not answered yet, in order. */
  queue: ToolCallPart[];
  results: ToolResultPart[];
  answer: string | null;
  failure: AgentFailure | null;
  /** The failure is the turn cap (not an actor's error). */
  turnCapReached: boolean;
}

/** Why an agent stopped without an answer: an actor's error, or the turn cap. */
export interface AgentFailure {
  reason: string;
  error?: unknown;
}

/** What a finished agent hands back: its answer, or why it failed, and its conversation. */
export interface AgentResult {
  answer: string | null;
  failure: AgentFailure | null;
  turnCapReached: boolean;
  messages: Message[];
  turns: number;
}

const base = setup({
  types: {
    input: {} as AgentInput,
    context: {} as AgentContext,
    output: {} as AgentResult,
  },
  actors: {
    modelTurn: fromPromise<ModelTurnOutput, ModelTurnInput>(async () => {
      throw new ActorNotProvidedError('modelTurn');
    }),
    executeTool: fromPromise<ToolOutcome, AgentToolInput>(async () => {
      throw new ActorNotProvidedError('executeTool');
    }),
  },
  guards: {
    turnCapReached: ({ context }) => context.turns >= context.maxTurns,
    replyHasNoToolCalls: ({ context }) => context.queue.length === 0,
    queueEmpty: ({ context }) => context.queue.length === 0,
  },
  actions: {
    emitToolCalled: (_, _params: ToolCalledParams) => noEffect(),
    emitToolCompleted: (_, _params: ToolCompletedParams) => noEffect(),
    emitMessageAppended: (_, _params: MessageAppendedParams) => noEffect(),
  },
});

const action = base.createAction;

/** An actor's rejection, handed to `failFromError`. */
const failFromError = {
  type: 'failFromError',
  params: ({ event }: { event: { error: unknown } }) => ({ error: event.error }),
} as const;

/** The head call with the result of its `executeTool` outcome. */
function answeredHead({
  context,
  event,
}: {
  context: AgentContext;
  event: { output: ToolOutcome };
}): ToolCompletedParams {
  const call = context.queue[0] as ToolCallPart;
  return { call, result: resultFor(call, event.output) };
}

/**
 * An agent: model turn → its tool calls in order through `executeTool` → repeat, until a
 * reply without tool calls, whose text is the answer. `maxTurns` bounds the loop.
 */
export const agentMachine = base
  .extend({
    actions: {
      /** The model's reply joins the conversation; its calls, if any, are queued. */
      acceptReply: assign(({ context }, reply: ModelTurnOutput) => {
        const queue = toolCallsOf(reply.message);
        return {
          messages: [...context.messages, reply.message],
          turns: context.turns + 1,
          queue,
          answer: queue.length === 0 ? textOf(reply.message) : null,
        };
      }),
      announceCall: action(
        enqueueActions(({ context, enqueue }) => {
          const call = context.queue[0];
          if (call !== undefined) enqueue({ type: 'emitToolCalled', params: { call } });
        }),
      ),
      /** The head call got its result: it leaves the queue. */
      recordResult: assign(({ context }, answered: ToolCompletedParams) => ({
        queue: context.queue.slice(1),
        results: [...context.results, answered.result],
      })),
      appendResults: action(
        enqueueActions(({ context, enqueue }) => {
          const message: Message = { role: 'user', parts: context.results };
          enqueue.assign({ messages: [...context.messages, message], results: [] });
          enqueue({ type: 'emitMessageAppended', params: { message } });
        }),
      ),
      failTurnCap: assign(({ context }) => ({
        failure: { reason: `more than ${context.maxTurns} model turns` },
        turnCapReached: true,
      })),
      /** An actor rejected (provider, tool infrastructure): the agent fails with its error. */
      failFromError: assign((_, rejected: { error: unknown }) => ({
        failure: { reason: reasonOf(rejected.error), error: rejected.error },
      })),
    },
  })
  .createMachine({
    id: 'agent',
    context: ({ input }) => ({
      messages: [...input.messages],
      turns: 0,
      maxTurns: input.maxTurns ?? DEFAULT_AGENT_MAX_TURNS,
      queue: [],
      results: [],
      answer: null,
      failure: null,
      turnCapReached: false,
    }),
    initial: 'preparingTurn',
    states: {
      preparingTurn: {
        description: 'Checks max_turns before the next model request.',
        always: [
          { guard: 'turnCapReached', target: 'failed', actions: 'failTurnCap' },
          { target: 'awaitingModel' },
        ],
      },
      awaitingModel: {
        description: 'The model is producing the next reply.',
        invoke: {
          src: 'modelTurn',
          input: ({ context }) => ({ messages: context.messages, turn: context.turns + 1 }),
          onDone: {
            target: 'reviewingReply',
            actions: [
              { type: 'acceptReply', params: ({ event }) => event.output },
              {
                type: 'emitMessageAppended',
                params: ({ event }) => ({ message: event.output.message }),
              },
            ],
          },
          onError: { target: 'failed', actions: failFromError },
        },
      },
      reviewingReply: {
        description: 'A reply without tool calls is the answer; otherwise its calls run.',
        always: [{ guard: 'replyHasNoToolCalls', target: 'answered' }, { target: 'runningTool' }],
      },
      runningTool: {
        description:
          'The first unanswered call runs through executeTool; calls run one at a time, in order.',
        entry: 'announceCall',
        invoke: {
          src: 'executeTool',
          input: ({ context }) => ({ call: context.queue[0] as ToolCallPart }),
          onDone: {
            target: 'nextTool',
            // Both see the head call: the completion is reported before the queue moves on.
            actions: [
              { type: 'emitToolCompleted', params: answeredHead },
              { type: 'recordResult', params: answeredHead },
            ],
          },
          onError: { target: 'failed', actions: failFromError },
        },
      },
      nextTool: {
        description: 'Runs the next call, or sends all results back to the model.',
        always: [
          { guard: 'queueEmpty', target: 'preparingTurn', actions: 'appendResults' },
          { target: 'runningTool' },
        ],
      },
      answered: {
        description: 'The agent replied without tool calls: that text is its answer.',
        type: 'final',
      },
      failed: {
        description: 'Provider error, tool infrastructure error, or max_turns.',
        type: 'final',
      },
    },
    output: ({ context }) => ({
      answer: context.answer,
      failure: context.failure,
      turnCapReached: context.turnCapReached,
      messages: context.messages,
      turns: context.turns,
    }),
  });
