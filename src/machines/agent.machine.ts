import { and, assign, enqueueActions, fromPromise, setup, type AnyEventObject } from 'xstate';
import type { Message, ToolCallPart } from '../models/model-types.ts';
import { applyContextCut, contextCutDue, planContextCut } from '../runtime/context-window.ts';
import type { ContextCutParams, MessageAppendedParams } from './effect-params.ts';
import { callsOverlapBadly } from './agent-overlap.ts';
import { environmentOf, nextCallOf, onNext, ruleOnNext, type FinishedCall } from './agent-calls.ts';
import type { ModelTurnInput, ModelTurnOutput, ToolOutcome } from './turn-types.ts';
import { failedResults, type FailureGateInput } from './failure-gate.ts';
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
    /** The step gate's hold before the round's failed results go back to the model. */
    failureGate: fromPromise<void, FailureGateInput & EnvironmentInput>(({ input, signal }) =>
      environmentOf(input, 'failureGate').holdFailures(input, signal),
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
    /** Every call of the reply has started and finished: the results can go back. */
    roundFinished: ({ context }) =>
      context.next >= context.calls.length && context.running.length === 0,
    roundHasFailures: ({ context }) => failedResults(context.results).length > 0,
    /**
     * A running call must end first: every call has started, the agent runs its calls one at
     * a time (`parallel_tool_calls = false`), or the next call must not overlap a running one.
     */
    mustWaitForRunningCalls: ({ context }) => {
      if (context.running.length === 0) return false;
      const next = nextCallOf(context);
      if (next === undefined || !context.parallelToolCalls) return true;
      return context.running.some((running) => callsOverlapBadly(next, running.call));
    },
    callNeedsSkill: onNext((context, call) => skillNeededFor(context, call.name) !== undefined),
    callLoadsSkill: onNext(loadsSkill),
    skillArgumentsInvalid: onNext((_, call) => !loadSkillArguments(call).ok),
    skillUnknown: onNext((context, call) => findSkill(context, requestedSkill(call)) === undefined),
    skillAlreadyLoaded: onNext((context, call) => isLoaded(context, requestedSkill(call))),
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

/**
 * A finished call's child id and output. The wildcard transitions that take its
 * `xstate.done.actor.toolCall.*` event type it as any event: only toolCall children match.
 */
const finishedCall = ({ event }: { event: AnyEventObject }): FinishedCall => {
  const done = event as unknown as { actorId: string; output: ToolOutcome };
  return { actorId: done.actorId, output: done.output };
};

/** A toolCall child's rejection (an `xstate.error.actor.toolCall.*` event), as `failFromError` takes it. */
const failedCall = {
  type: 'failFromError',
  params: ({ event }: { event: AnyEventObject }) => ({
    error: (event as unknown as { error: unknown }).error,
  }),
} as const;

/**
 * After the reply's last call: its results join the conversation as one user message, in call
 * order, in one context update, which is then reported.
 */
const appendResultsActions = [
  'appendResults',
  {
    type: 'emitMessageAppended',
    params: ({ context }: { context: AgentContext }) => ({
      message: context.messages[context.messages.length - 1] as Message,
    }),
  },
] as const;

/**
 * An agent: model turn → its tool calls, each held at the step gate in call order and then
 * started, running together unless they must not overlap → their results back to the model in
 * call order → repeat, until a reply without tool calls, whose text is the answer. `maxTurns`
 * bounds the loop. Model turns and gate holds are the named actors `modelTurn`, `toolGate` and
 * `failureGate` (before failed results go back),
 * invoked by the states that wait for them; each call is a `toolCall` child, spawned when it
 * starts and stopped with the machine.
 */
export const agentMachine = base
  .extend({
    actions: {
      /** The model's reply joins the conversation; its calls, if any, are queued. */
      acceptReply: assign(({ context }, reply: ModelTurnOutput) => {
        const calls = toolCallsOf(reply.message);
        return {
          messages: [...context.messages, reply.message],
          turns: context.turns + 1,
          lastUsage: reply.usage ?? null,
          calls,
          next: 0,
          answer: calls.length === 0 ? textOf(reply.message) : null,
        };
      }),
      /** The next call passed the gate: its tool starts as a child; the call after it is next. */
      startCall: assign(({ context, spawn }) => {
        const index = context.next;
        const call = context.calls[index] as ToolCallPart;
        const id = `toolCall.${context.turns}.${index}`;
        spawn('toolCall', {
          id,
          input: {
            call,
            ...(context.ruling === null ? {} : { answer: context.ruling }),
            loadedSkills: context.loadedSkills,
            environment: context.environment,
          },
        });
        return {
          next: index + 1,
          running: [...context.running, { id, index, call }],
          ruling: null,
        };
      }),
      /** A call finished: its result takes its place in call order. */
      recordResult: assign(({ context }, finished: FinishedCall) => {
        const entry = context.running.find((running) => running.id === finished.actorId);
        if (entry === undefined) return {};
        const results = [...context.results];
        results[entry.index] = resultFor(entry.call, finished.output);
        return { running: context.running.filter((running) => running !== entry), results };
      }),
      /** Every call finished: the reply's results join the conversation in call order. */
      appendResults: assign(({ context }) => ({
        messages: [
          ...context.messages,
          { role: 'user', parts: context.results.filter((result) => result !== undefined) },
        ],
        calls: [],
        next: 0,
        results: [],
      })),
      refuseSkillTool: assign(
        ruleOnNext((context, call) =>
          skillAnswers.needsSkill(call.name, skillNeededFor(context, call.name) ?? ''),
        ),
      ),
      refuseSkillArguments: assign(ruleOnNext((_, call) => skillAnswers.invalidArguments(call))),
      refuseUnknownSkill: assign(
        ruleOnNext((context, call) => skillAnswers.unknown(context, requestedSkill(call))),
      ),
      refuseSkillLoadedTwice: assign(
        ruleOnNext((_, call) => skillAnswers.loadedTwice(requestedSkill(call))),
      ),
      loadSkill: assign(({ context }) => {
        const skill = findSkill(context, requestedSkill(nextCallOf(context) as ToolCallPart));
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
            { target: 'runningTools', actions: acceptReplyActions },
          ],
          onError: { target: 'failed', actions: failFromError },
        },
      },
      runningTools: {
        description:
          "The reply's calls: each is ruled on, held at the step gate and started in call order; calls run together unless they must not overlap.",
        initial: 'choosingCall',
        on: {
          'xstate.done.actor.toolCall.*': {
            actions: { type: 'recordResult', params: finishedCall },
          },
          'xstate.error.actor.toolCall.*': { target: 'failed', actions: failedCall },
        },
        states: {
          choosingCall: {
            description:
              'After the last result the results go back to the model; a call that must not overlap a running one waits; else the skill rules look at the next call: a tool of a skill not loaded yet is refused, load_skill is ruled on, any other call goes to the gate.',
            always: [
              { guard: and(['roundFinished', 'roundHasFailures']), target: 'holdingFailures' },
              {
                guard: 'roundFinished',
                target: '#agent.preparingTurn',
                actions: appendResultsActions,
              },
              { guard: 'mustWaitForRunningCalls', target: 'waitingForCalls' },
              { guard: 'callNeedsSkill', target: 'holdingCall', actions: 'refuseSkillTool' },
              { guard: 'callLoadsSkill', target: 'loadingSkill' },
              { target: 'holdingCall' },
            ],
          },
          loadingSkill: {
            description:
              'load_skill: refused for bad arguments, an unknown skill or one already loaded; else the skill is loaded (its tools are callable from the next call on).',
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
            description:
              "The step gate may hold the next call; once through, its tool (or the report of the machine's ruling) starts.",
            invoke: {
              src: 'toolGate',
              input: ({ context }) => ({
                call: nextCallOf(context) as ToolCallPart,
                environment: context.environment,
              }),
              onDone: { target: 'choosingCall', actions: 'startCall' },
              onError: { target: '#agent.failed', actions: failFromError },
            },
          },
          holdingFailures: {
            description:
              "The step gate may hold the round's failed results before they go back to the model (--break error).",
            invoke: {
              src: 'failureGate',
              input: ({ context }) => ({
                failures: failedResults(context.results),
                environment: context.environment,
              }),
              onDone: { target: '#agent.preparingTurn', actions: appendResultsActions },
              onError: { target: '#agent.failed', actions: failFromError },
            },
          },
          waitingForCalls: {
            description: 'Running calls must finish before the next one starts or the round ends.',
            on: {
              'xstate.done.actor.toolCall.*': {
                target: 'choosingCall',
                actions: { type: 'recordResult', params: finishedCall },
              },
            },
          },
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
