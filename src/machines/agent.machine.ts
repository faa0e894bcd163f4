import { assign, enqueueActions, setup } from 'xstate';
import type { Message, ToolCallPart, ToolResultPart, Usage } from '../models/model-types.ts';
import {
  applyContextCut,
  contextCutDue,
  planContextCut,
  type ContextPolicy,
} from '../runtime/context-window.ts';
import type {
  ContextCutParams,
  MessageAppendedParams,
  ToolCompletedParams,
} from './effect-params.ts';
import { ActorNotProvidedError } from './effect-params.ts';
import type { ModelTurnInput, ModelTurnOutput, ToolOutcome } from './turn-types.ts';
import { startJob, type WorkerReply } from './turn-worker.ts';
import {
  acceptReplyActions,
  failFromError,
  reasonOf,
  resultFor,
  textOf,
  toolCallsOf,
} from './turn-types.ts';
import {
  findSkill,
  isLoaded,
  loadSkillArguments,
  loadsSkill,
  requestedSkill,
  skillAnswers,
  skillNeededFor,
  type SkillEntry,
} from './agent-skills.ts';

/** The default `max_turns` of an agent (runtime.md, "Agent loop"). */
export const DEFAULT_AGENT_MAX_TURNS = 50;

export interface AgentInput {
  /** The conversation so far, ending with the task as a user message. */
  messages: Message[];
  maxTurns?: number;
  /** The skills the agent may load (`load_skill` is answered only when there is one). */
  skills?: readonly SkillEntry[];
  /** Skills loaded by earlier calls of the session (or before a restart), in load order. */
  loadedSkills?: readonly string[];
  /** `pruning` and `compaction` of the agent; none by default. */
  context?: ContextPolicy;
  /**
   * What the run gives this agent: its model turns, tool calls and effects. Without one every
   * model turn fails (the machine has no I/O of its own). One machine serves every agent:
   * `provide` per call rebuilt its state nodes.
   */
  environment?: AgentEnvironment;
}

/** The run's side of one agent machine (see `AgentInput.environment`). */
export interface AgentEnvironment {
  modelTurn(input: ModelTurnInput, signal: AbortSignal): Promise<ModelTurnOutput>;
  executeTool(input: AgentToolInput, signal: AbortSignal): Promise<ToolOutcome>;
  messageAppended(params: MessageAppendedParams): void;
  contextCut(params: ContextCutParams): void;
}

function environmentOf(context: AgentContext, actor: string): AgentEnvironment {
  if (context.environment === null) throw new ActorNotProvidedError(actor);
  return context.environment;
}

/**
 * What an agent's `executeTool` receives: the raw call (the wiring validates it), or the
 * machine's own `answer` to it (skill rules) for the wiring to report as the call's result.
 */
export interface AgentToolInput {
  call: ToolCallPart;
  answer?: ToolOutcome;
  /** The skills loaded now: their tools are callable. */
  loadedSkills: readonly string[];
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
  skills: readonly SkillEntry[];
  loadedSkills: string[];
  /** The machine's own result for the call at the head of the queue (skill rules), if any. */
  ruling: ToolOutcome | null;
  context: ContextPolicy;
  /** Usage of the last reply (its prompt size decides compaction); null after a cut. */
  lastUsage: Usage | null;
  environment: AgentEnvironment | null;
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
  /** Every skill loaded so far, in load order (the next call starts with them). */
  loadedSkills: string[];
}

type Guard = (args: { context: AgentContext }) => boolean;

/** A guard on the call at the head of the queue. */
const onHead =
  (predicate: (context: AgentContext, call: ToolCallPart) => boolean): Guard =>
  ({ context }) => {
    const call = context.queue[0];
    return call !== undefined && predicate(context, call);
  };

/** The reply's first tool call, found without building the list of its calls. */
function firstCallOf(reply: ModelTurnOutput): ToolCallPart | undefined {
  return reply.message.parts.find((part): part is ToolCallPart => part.type === 'tool_call');
}

/** No skill rule applies to `call`: its tool runs as it is. */
function isPlainCall(context: AgentContext, call: ToolCallPart): boolean {
  return skillNeededFor(context, call.name) === undefined && !loadsSkill(context, call);
}

/** The context update of a ruling on the head call: its result comes from `rule`, not a tool. */
const ruleOnHead =
  (rule: (context: AgentContext, call: ToolCallPart) => ToolOutcome) =>
  ({ context }: { context: AgentContext }): Partial<AgentContext> => ({
    ruling: rule(context, context.queue[0] as ToolCallPart),
  });

const base = setup({
  types: {
    input: {} as AgentInput,
    context: {} as AgentContext,
    output: {} as AgentResult,
    events: {} as WorkerReply,
  },
  guards: {
    turnCapReached: ({ context }) => context.turns >= context.maxTurns,
    replyHasNoToolCalls: (_, reply: ModelTurnOutput) => firstCallOf(reply) === undefined,
    // The three guards below let a turn skip an eventless step when its checks cannot apply.
    replyStartsWithPlainCall: ({ context }, reply: ModelTurnOutput) => {
      const first = firstCallOf(reply);
      return first !== undefined && isPlainCall(context, first);
    },
    nextCallIsPlain: ({ context }) => {
      const next = context.queue[1];
      return next !== undefined && isPlainCall(context, next);
    },
    headIsLastCall: ({ context }) => context.queue.length === 1,
    /**
     * The head is the reply's last call and preparingTurn's checks cannot apply to the next
     * turn: turns are left and the agent has no pruning or compaction.
     */
    lastCallAndNoChecksNext: ({ context }) =>
      context.queue.length === 1 &&
      context.turns < context.maxTurns &&
      context.context.pruning === undefined &&
      context.context.compaction === undefined,
    callNeedsSkill: onHead((context, call) => skillNeededFor(context, call.name) !== undefined),
    callLoadsSkill: onHead(loadsSkill),
    skillArgumentsInvalid: onHead((_, call) => !loadSkillArguments(call).ok),
    skillUnknown: onHead((context, call) => findSkill(context, requestedSkill(call)) === undefined),
    skillAlreadyLoaded: onHead((context, call) => isLoaded(context, requestedSkill(call))),
    contextOverLimit: ({ context }) =>
      contextCutDue(context.messages, context.context, context.lastUsage),
  },
  actions: {
    // The environment records effects; without one (a machine test) they do nothing.
    emitMessageAppended: ({ context }, params: MessageAppendedParams) =>
      context.environment?.messageAppended(params),
    emitContextCut: ({ context }, params: ContextCutParams) =>
      context.environment?.contextCut(params),
    /** The next model request, from the conversation so far (the worker sends it). */
    startModelTurn: ({ context, self }) => {
      const input: ModelTurnInput = {
        messages: context.messages,
        turn: context.turns + 1,
        loadedSkills: context.loadedSkills,
      };
      startJob(self, {
        kind: 'modelTurn',
        id: 'modelTurn',
        start: (signal) => environmentOf(context, 'modelTurn').modelTurn(input, signal),
      });
    },
    /** The head call's tool (or the report of the machine's ruling on it). */
    startToolCall: ({ context, self }) => {
      const call = context.queue[0] as ToolCallPart;
      const input: AgentToolInput = {
        call,
        ...(context.ruling === null ? {} : { answer: context.ruling }),
        loadedSkills: context.loadedSkills,
      };
      startJob(self, {
        kind: 'toolCall',
        id: call.id,
        start: (signal) => environmentOf(context, 'executeTool').executeTool(input, signal),
      });
    },
  },
});

const action = base.createAction;

/** The head call with the result of its tool's outcome. */
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

/** The head call's result is recorded (one context update). */
const resultActions = [{ type: 'recordResult', params: answeredHead }] as const;

/**
 * After the reply's last call: its results join the conversation as one user message in the
 * same context update, which is then reported.
 */
const lastResultActions = [
  { type: 'appendResults', params: answeredHead },
  {
    type: 'emitMessageAppended',
    params: ({ context }: { context: AgentContext }) => ({
      message: context.messages[context.messages.length - 1] as Message,
    }),
  },
] as const;

/**
 * An agent: model turn → its tool calls in order through `executeTool` → repeat, until a
 * reply without tool calls, whose text is the answer. `maxTurns` bounds the loop. The turns
 * and calls run in the one `worker` child (turn-worker.ts), which lives as long as the machine.
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
          lastUsage: reply.usage ?? null,
          queue,
          answer: queue.length === 0 ? textOf(reply.message) : null,
        };
      }),
      /** The head call got its result: it leaves the queue. */
      recordResult: assign(({ context }, answered: ToolCompletedParams) => ({
        queue: context.queue.slice(1),
        results: [...context.results, answered.result],
        ruling: null,
      })),
      /** The last call got its result: the reply's results join the conversation. */
      appendResults: assign(({ context }, answered: ToolCompletedParams) => ({
        messages: [
          ...context.messages,
          { role: 'user', parts: [...context.results, answered.result] },
        ],
        queue: [],
        results: [],
        ruling: null,
      })),
      refuseSkillTool: assign(
        ruleOnHead((context, call) =>
          skillAnswers.needsSkill(call.name, skillNeededFor(context, call.name) ?? ''),
        ),
      ),
      refuseSkillArguments: assign(ruleOnHead((_, call) => skillAnswers.invalidArguments(call))),
      refuseUnknownSkill: assign(
        ruleOnHead((context, call) => skillAnswers.unknown(context, requestedSkill(call))),
      ),
      refuseSkillLoadedTwice: assign(
        ruleOnHead((_, call) => skillAnswers.loadedTwice(requestedSkill(call))),
      ),
      loadSkill: assign(({ context }) => {
        const skill = findSkill(context, requestedSkill(context.queue[0] as ToolCallPart));
        if (skill === undefined) return {};
        return {
          loadedSkills: [...context.loadedSkills, skill.name],
          ruling: skillAnswers.loaded(skill),
        };
      }),
      cutContext: action(
        enqueueActions(({ context, enqueue }) => {
          const cut = planContextCut(context.messages, context.context, context.lastUsage);
          if (cut === null) return;
          enqueue.assign({ messages: applyContextCut(context.messages, cut), lastUsage: null });
          enqueue({ type: 'emitContextCut', params: { cut } });
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
      skills: input.skills ?? [],
      loadedSkills: [...(input.loadedSkills ?? [])],
      ruling: null,
      context: input.context ?? {},
      lastUsage: null,
      environment: input.environment ?? null,
    }),
    initial: 'preparingTurn',
    states: {
      preparingTurn: {
        description:
          'Checks max_turns before the next model request, and prunes or compacts the conversation when its limits are reached.',
        always: [
          { guard: 'turnCapReached', target: 'failed', actions: 'failTurnCap' },
          { guard: 'contextOverLimit', target: 'awaitingModel', actions: 'cutContext' },
          { target: 'awaitingModel' },
        ],
      },
      awaitingModel: {
        description: 'The model is producing the next reply.',
        entry: 'startModelTurn',
        on: {
          // A reply without tool calls is the answer; otherwise its calls run. Decided on the
          // reply itself, in the transition that accepts it (no eventless step per turn).
          'modelTurn.done': [
            {
              guard: { type: 'replyHasNoToolCalls', params: ({ event }) => event.output },
              target: 'answered',
              actions: acceptReplyActions,
            },
            // No skill rule applies to the first call: choosingCall would send it on to its tool.
            {
              guard: { type: 'replyStartsWithPlainCall', params: ({ event }) => event.output },
              target: 'runningTool',
              actions: acceptReplyActions,
            },
            { target: 'choosingCall', actions: acceptReplyActions },
          ],
          'modelTurn.failed': { target: 'failed', actions: failFromError },
        },
      },
      choosingCall: {
        description:
          'The skill rules look at the first unanswered call: a tool of a skill not loaded yet is refused, load_skill is ruled on; any other call runs its tool.',
        always: [
          { guard: 'callNeedsSkill', target: 'runningTool', actions: 'refuseSkillTool' },
          { guard: 'callLoadsSkill', target: 'loadingSkill' },
          { target: 'runningTool' },
        ],
      },
      loadingSkill: {
        description:
          'load_skill: refused for bad arguments, an unknown skill or one already loaded; else the skill is loaded (its tools are callable from now on).',
        always: [
          {
            guard: 'skillArgumentsInvalid',
            target: 'runningTool',
            actions: 'refuseSkillArguments',
          },
          { guard: 'skillUnknown', target: 'runningTool', actions: 'refuseUnknownSkill' },
          {
            guard: 'skillAlreadyLoaded',
            target: 'runningTool',
            actions: 'refuseSkillLoadedTwice',
          },
          { target: 'runningTool', actions: 'loadSkill' },
        ],
      },
      runningTool: {
        description:
          'The first unanswered call runs through executeTool (which reports the ruling instead when the machine made one); calls run one at a time, in order.',
        entry: 'startToolCall',
        on: {
          // After the last call of the reply the results go back to the model; else the next
          // call runs. (Its tool.called and tool.completed are the wiring's: executeTool.)
          // The shortcuts skip the eventless step of preparingTurn or choosingCall when its
          // checks cannot apply (turns left and no context limits; no skill rule on the call).
          'toolCall.done': [
            {
              guard: 'lastCallAndNoChecksNext',
              target: 'awaitingModel',
              actions: lastResultActions,
            },
            { guard: 'headIsLastCall', target: 'preparingTurn', actions: lastResultActions },
            {
              guard: 'nextCallIsPlain',
              target: 'runningTool',
              reenter: true,
              actions: resultActions,
            },
            { target: 'choosingCall', actions: resultActions },
          ],
          'toolCall.failed': { target: 'failed', actions: failFromError },
        },
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
      loadedSkills: context.loadedSkills,
    }),
  });
