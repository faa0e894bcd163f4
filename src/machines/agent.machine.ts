import { assign, enqueueActions, fromPromise, setup } from 'xstate';
import type { Message, ToolCallPart } from '../models/model-types.ts';
import { applyContextCut, contextCutDue, planContextCut } from '../runtime/context-window.ts';
import type {
  ContextCutParams,
  MessageAppendedParams,
  ToolCompletedParams,
} from './effect-params.ts';
import { ActorNotProvidedError } from './effect-params.ts';
import type { ModelTurnInput, ModelTurnOutput, ToolOutcome } from './turn-types.ts';
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
} from './agent-skills.ts';
import {
  initialAgentContext,
  type AgentContext,
  type AgentEnvironment,
  type AgentInput,
  type AgentResult,
  type AgentToolInput,
  type EnvironmentInput,
} from './agent-context.ts';

export { DEFAULT_AGENT_MAX_TURNS } from './agent-context.ts';
export type {
  AgentContext,
  AgentEnvironment,
  AgentFailure,
  AgentInput,
  AgentResult,
  AgentToolInput,
} from './agent-context.ts';

/** The environment an actor was given; without one the actor must have been provided. */
function environmentOf(input: EnvironmentInput, actor: string): AgentEnvironment {
  if (input.environment === null) throw new ActorNotProvidedError(actor);
  return input.environment;
}

type Guard = (args: { context: AgentContext }) => boolean;

/** A guard on the call at the head of the queue. */
const onHead =
  (predicate: (context: AgentContext, call: ToolCallPart) => boolean): Guard =>
  ({ context }) => {
    const call = context.queue[0];
    return call !== undefined && predicate(context, call);
  };

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
  },
  actors: {
    /** The next model request, from the conversation so far. */
    modelTurn: fromPromise<ModelTurnOutput, ModelTurnInput & EnvironmentInput>(
      ({ input, signal }) => environmentOf(input, 'modelTurn').modelTurn(input, signal),
    ),
    /** The step gate's hold on one call before it runs. */
    toolGate: fromPromise<void, { call: ToolCallPart } & EnvironmentInput>(({ input, signal }) =>
      environmentOf(input, 'toolGate').holdCall(input.call, signal),
    ),
    /** One call's tool (or the report of the machine's ruling on it). */
    toolCall: fromPromise<ToolOutcome, AgentToolInput & EnvironmentInput>(({ input, signal }) =>
      environmentOf(input, 'toolCall').executeTool(input, signal),
    ),
  },
  guards: {
    turnCapReached: ({ context }) => context.turns >= context.maxTurns,
    replyHasNoToolCalls: (_, reply: ModelTurnOutput) =>
      !reply.message.parts.some((part) => part.type === 'tool_call'),
    headIsLastCall: ({ context }) => context.queue.length === 1,
    callNeedsSkill: onHead((context, call) => skillNeededFor(context, call.name) !== undefined),
    callLoadsSkill: onHead(loadsSkill),
    skillArgumentsInvalid: onHead((_, call) => !loadSkillArguments(call).ok),
    skillUnknown: onHead((context, call) => findSkill(context, requestedSkill(call)) === undefined),
    skillAlreadyLoaded: onHead((context, call) => isLoaded(context, requestedSkill(call))),
    contextOverLimit: ({ context }) =>
      contextCutDue(context.messages, context.context, context.lastUsage),
  },
  actions: {
    // Reported on the environment's bus; a machine without one reports nothing.
    emitMessageAppended: ({ context }, { message }: MessageAppendedParams) => {
      const environment = context.environment;
      if (environment === null) return;
      const { conversation } = environment;
      environment.bus.emit({
        type: 'message.appended',
        actor: conversation,
        conversation,
        message,
      });
    },
    emitContextCut: ({ context }, { cut }: ContextCutParams) => {
      const environment = context.environment;
      if (environment === null) return;
      const { conversation } = environment;
      environment.bus.emit({
        type: 'context.compacted',
        actor: conversation,
        conversation,
        ...cut,
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
 * An agent: model turn → its tool calls in order, each held at the step gate and then run →
 * repeat, until a reply without tool calls, whose text is the answer. `maxTurns` bounds the
 * loop. Model turns, gate holds and tool calls are the named actors `modelTurn`, `toolGate`
 * and `toolCall`, invoked by the states that wait for them.
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
    context: ({ input }) => initialAgentContext(input),
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
        invoke: {
          src: 'modelTurn',
          input: ({ context }) => ({
            messages: context.messages,
            turn: context.turns + 1,
            loadedSkills: context.loadedSkills,
            environment: context.environment,
          }),
          // A reply without tool calls is the answer; otherwise its calls run.
          onDone: [
            {
              guard: { type: 'replyHasNoToolCalls', params: ({ event }) => event.output },
              target: 'answered',
              actions: acceptReplyActions,
            },
            { target: 'choosingCall', actions: acceptReplyActions },
          ],
          onError: { target: 'failed', actions: failFromError },
        },
      },
      choosingCall: {
        description:
          'The skill rules look at the first unanswered call: a tool of a skill not loaded yet is refused, load_skill is ruled on; any other call runs its tool.',
        always: [
          { guard: 'callNeedsSkill', target: 'holdingCall', actions: 'refuseSkillTool' },
          { guard: 'callLoadsSkill', target: 'loadingSkill' },
          { target: 'holdingCall' },
        ],
      },
      loadingSkill: {
        description:
          'load_skill: refused for bad arguments, an unknown skill or one already loaded; else the skill is loaded (its tools are callable from now on).',
        always: [
          {
            guard: 'skillArgumentsInvalid',
            target: 'holdingCall',
            actions: 'refuseSkillArguments',
          },
          { guard: 'skillUnknown', target: 'holdingCall', actions: 'refuseUnknownSkill' },
          {
            guard: 'skillAlreadyLoaded',
            target: 'holdingCall',
            actions: 'refuseSkillLoadedTwice',
          },
          { target: 'holdingCall', actions: 'loadSkill' },
        ],
      },
      holdingCall: {
        description: 'The step gate may hold the first unanswered call before it runs.',
        invoke: {
          src: 'toolGate',
          input: ({ context }) => ({
            call: context.queue[0] as ToolCallPart,
            environment: context.environment,
          }),
          onDone: { target: 'runningTool' },
          onError: { target: 'failed', actions: failFromError },
        },
      },
      runningTool: {
        description:
          "The first unanswered call runs its tool (or reports the machine's ruling on it); after the reply's last call the results go back to the model.",
        invoke: {
          src: 'toolCall',
          input: ({ context }) => ({
            call: context.queue[0] as ToolCallPart,
            ...(context.ruling === null ? {} : { answer: context.ruling }),
            loadedSkills: context.loadedSkills,
            environment: context.environment,
          }),
          onDone: [
            { guard: 'headIsLastCall', target: 'preparingTurn', actions: lastResultActions },
            { target: 'choosingCall', actions: resultActions },
          ],
          onError: { target: 'failed', actions: failFromError },
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
