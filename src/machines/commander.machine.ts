import { and, setup } from 'xstate';
import type {
  CommanderContext,
  CommanderEvent,
  CommanderInput,
  CommanderResult,
} from './commander-context.ts';
import { CURSOR_ID, DEFAULT_COMMANDER_MAX_TURNS, headOf, toolsOf } from './commander-context.ts';
import { commanderActors } from './commander-io.ts';
import {
  acceptCallsActions,
  acceptReplyActions,
  announceHead,
  answerAnyCall,
  answeringActions,
  answeringGuards,
  replyOf,
} from './commander-answering.ts';
import { answerPlanning, planningActions, planningGuards } from './commander-planning.ts';
import { batchDoneOf, dispatchingActions, dispatchingGuards } from './commander-dispatching.ts';
import { answerCompleting, completingActions, completingGuards } from './commander-completing.ts';
import type {
  ContextCutParams,
  MessageAppendedParams,
  OutputSubmittedParams,
  PlanUpdatedParams,
  ToolCalledParams,
  ToolCompletedParams,
} from './effect-params.ts';
import { failFromError } from './turn-types.ts';
import { datasetCursorMachine, firstItemWithoutOutput } from './dataset-cursor.machine.ts';
import {
  commanderHoldActors,
  commanderHoldGuards,
  failureGateInput,
  routeGateInput,
} from './commander-holds.ts';

/** The effects: the environment records them; without one (a machine test) they do nothing. */
const effectActions = {
  emitPlanUpdated: ({ context }: { context: CommanderContext }, params: PlanUpdatedParams) =>
    context.environment?.effects.planUpdated(params),
  emitToolCalled: ({ context }: { context: CommanderContext }, params: ToolCalledParams) =>
    context.environment?.effects.toolCalled(params),
  emitToolCompleted: ({ context }: { context: CommanderContext }, params: ToolCompletedParams) =>
    context.environment?.effects.toolCompleted(params),
  emitOutputSubmitted: (
    { context }: { context: CommanderContext },
    params: OutputSubmittedParams,
  ) => context.environment?.effects.outputSubmitted(params),
  emitMessageAppended: (
    { context }: { context: CommanderContext },
    params: MessageAppendedParams,
  ) => context.environment?.effects.messageAppended(params),
  emitContextCut: ({ context }: { context: CommanderContext }, params: ContextCutParams) =>
    context.environment?.effects.contextCut(params),
};

/**
 * A task's commander: the model⇄tool loop with every rule of tools.md ("Planning",
 * "Completion", plan first, plan lock) as a guard, in one setup: the rules of each part of the
 * loop are in commander-answering.ts (replies, results, limits), commander-planning.ts,
 * commander-dispatching.ts (internal calls and external batches) and commander-completing.ts
 * (task_complete, submit_output, dataset_next). A rejected call leaves plan, lock, outputs and
 * completion untouched. I/O is named actors (`modelTurn`, `toolGate`, `toolCall`, and the
 * holds `routeGate` and `failureGate`) invoked or spawned by the states that wait for them, which reach the run through the
 * environment in their input; leaving the state cancels them. Effects are the `emit*` actions.
 */
export const commanderMachine = setup({
  types: {
    input: {} as CommanderInput,
    context: {} as CommanderContext,
    events: {} as CommanderEvent,
    output: {} as CommanderResult,
  },
  actors: { ...commanderActors, ...commanderHoldActors, datasetCursor: datasetCursorMachine },
  guards: {
    ...answeringGuards,
    ...planningGuards,
    ...dispatchingGuards,
    ...completingGuards,
    ...commanderHoldGuards,
  },
  actions: {
    ...effectActions,
    ...answeringActions,
    ...planningActions,
    ...dispatchingActions,
    ...completingActions,
  },
}).createMachine({
  id: 'commander',
  context: ({ input, spawn }) => {
    const accepted = input.acceptedOutputs ?? {};
    if (input.task.iterator === 'sequential') {
      // Known by its id (CURSOR_ID); its replies are events, kept in `dataset`.
      const items = input.items ?? [];
      const startAt = firstItemWithoutOutput(items.length, Object.keys(accepted).map(Number));
      spawn('datasetCursor', { id: CURSOR_ID, input: { items, startAt } });
    }
    return {
      task: input.task,
      messages: [...input.messages],
      plan: input.plan ?? null,
      planLocked: input.planLocked ?? false,
      output: input.output ?? null,
      itemOutputs: { ...accepted },
      itemIndex: input.itemIndex ?? null,
      completion: null,
      failure: null,
      turns: 0,
      limits: {
        maxTurns: input.maxTurns ?? DEFAULT_COMMANDER_MAX_TURNS,
        context: input.context ?? {},
        resultTools: input.resultTools ?? false,
      },
      lastReply: null,
      streaks: { nudges: 0, outputLimitHits: 0 },
      queue: [],
      results: [],
      note: null,
      batch: [],
      dataset:
        input.task.iterator === 'sequential'
          ? { current: null, handedOut: [], exhausted: false }
          : null,
      environment: input.environment ?? null,
    };
  },
  initial: 'betweenTurns',
  states: {
    betweenTurns: {
      description:
        "Appends the last reply's results (and any note) as one user message, then stops, or checks the turn cap and prunes or compacts the conversation before the next model request.",
      entry: 'appendResults',
      always: [
        { guard: 'routeDecided', target: 'holdingRoute' },
        { guard: 'taskAlreadyCompleted', target: 'completed' },
        { guard: 'outputLimitExhausted', target: 'failed', actions: 'failOutputLimit' },
        { guard: 'turnCapReached', target: 'failed', actions: 'failTurnCap' },
        { guard: 'contextOverLimit', target: 'awaitingModel', actions: 'cutContext' },
        { target: 'awaitingModel' },
      ],
    },
    awaitingModel: {
      description:
        'The model is producing the next reply. The reply decides at once what it needs: its tool calls run, a nudge, or the output-limit note.',
      invoke: {
        src: 'modelTurn',
        id: 'modelTurn',
        input: ({ context }) => ({
          messages: context.messages,
          turn: context.turns + 1,
          tools: toolsOf(context),
          environment: context.environment,
        }),
        // Decided on the reply itself, in the transition that accepts it: a reply with calls
        // takes no eventless step.
        onDone: [
          {
            guard: { type: 'replyHitOutputLimit', params: replyOf },
            target: 'betweenTurns',
            actions: [...acceptReplyActions, 'refuseTruncatedCalls'],
          },
          {
            guard: { type: 'replyHasNoToolCalls', params: replyOf },
            target: 'nudging',
            actions: acceptReplyActions,
          },
          // Its calls run; the reply counters start again in the same context update.
          { target: 'runningTools', actions: acceptCallsActions },
        ],
        onError: { target: 'failed', actions: failFromError },
      },
    },
    nudging: {
      description:
        'A reply without tool calls: the model is nudged to call a tool, unless the last nudge allowed was sent.',
      always: [
        { guard: 'nudgesUsedUp', target: 'failed', actions: 'failStoppedCallingTools' },
        { target: 'betweenTurns', actions: 'nudge' },
      ],
    },
    runningTools: {
      description: "Answers the reply's tool calls in order, each exactly once.",
      initial: 'choosing',
      states: {
        choosing: {
          description:
            'Looks at the next unanswered call: rejects it, or hands it to its rules or its actor.',
          always: [
            { guard: and(['queueEmpty', 'roundHasFailures']), target: 'holdingFailures' },
            { guard: 'queueEmpty', target: '#commander.betweenTurns' },
            {
              guard: 'taskAlreadyCompleted',
              actions: [announceHead, answerAnyCall.alreadyCompleted],
            },
            { guard: 'headIsUnknownTool', actions: [announceHead, answerAnyCall.unknownTool] },
            {
              guard: 'headHasInvalidArguments',
              actions: [announceHead, answerAnyCall.invalidArguments],
            },
            { guard: 'headNeedsPlanFirst', actions: [announceHead, answerPlanning.planFirst] },
            { guard: 'headIsExternal', target: 'executing', actions: 'startBatch' },
            { target: 'gating' },
          ],
        },
        holdingFailures: {
          description:
            "The step gate may hold the round's failed results before they go back to the model (--break error).",
          invoke: {
            src: 'failureGate',
            input: failureGateInput,
            onDone: { target: '#commander.betweenTurns' },
            onError: { target: '#commander.failed', actions: failFromError },
          },
        },
        gating: {
          description:
            'The step gate may hold an internal call before it runs (external calls are gated by executeTool).',
          invoke: {
            src: 'toolGate',
            input: ({ context }) => ({
              call: headOf(context).call,
              environment: context.environment,
            }),
            onDone: { target: 'dispatching', actions: [announceHead, 'dispatchHead'] },
            onError: {
              target: '#commander.failed',
              actions: [failFromError, 'closeOpenCalls'],
            },
          },
        },
        dispatching: {
          description:
            "An internal tool call as an event, checked by the machine's guards in order.",
          on: {
            'tool.set_subtasks': [
              { guard: 'planLocked', target: 'choosing', actions: answerPlanning.planLocked },
              { target: 'choosing', actions: ['acceptPlan', answerPlanning.plan] },
            ],
            'tool.get_subtasks': { target: 'choosing', actions: answerPlanning.subtasks },
            'tool.complete_subtask': [
              {
                guard: 'cannotCompleteSubtask',
                target: 'choosing',
                actions: answerPlanning.subtaskNotCompleted,
              },
              { target: 'choosing', actions: ['completeSubtask', answerPlanning.subtaskCompleted] },
            ],
            'tool.submit_output': [
              {
                guard: 'noCurrentItem',
                target: 'choosing',
                actions: answerCompleting.noCurrentItem,
              },
              {
                guard: 'outputInvalid',
                target: 'choosing',
                actions: answerCompleting.outputInvalid,
              },
              { target: 'choosing', actions: 'acceptOutput' },
            ],
            // The checks of tools.md "Completion", in their order; the first failing one answers.
            'tool.task_complete': [
              {
                guard: 'failsWithReason',
                target: 'choosing',
                actions: ['acceptFailure', answerCompleting.failed],
              },
              {
                guard: 'failsWithoutReason',
                target: 'choosing',
                actions: answerCompleting.reasonMissing,
              },
              {
                guard: 'summaryMissing',
                target: 'choosing',
                actions: answerCompleting.summaryMissing,
              },
              { guard: 'subtasksOpen', target: 'choosing', actions: answerCompleting.subtasksOpen },
              {
                guard: 'outputMissing',
                target: 'choosing',
                actions: answerCompleting.outputMissing,
              },
              {
                guard: 'datasetNotExhausted',
                target: 'choosing',
                actions: answerCompleting.datasetNotExhausted,
              },
              {
                guard: 'itemOutputMissing',
                target: 'choosing',
                actions: answerCompleting.itemOutputMissing,
              },
              { guard: 'routeMissing', target: 'choosing', actions: answerCompleting.routeMissing },
              {
                guard: 'missionInputsInvalid',
                target: 'choosing',
                actions: answerCompleting.missionInputsInvalid,
              },
              { target: 'choosing', actions: ['acceptSuccess', answerCompleting.succeeded] },
            ],
            'tool.dataset_next': { target: 'awaitingCursor', actions: 'askCursor' },
          },
        },
        awaitingCursor: {
          description: 'The dataset cursor checks its preconditions and answers dataset_next.',
          on: {
            // Handing out the next item lifts the plan lock: a plan per item.
            'cursor.handedOut': {
              target: 'choosing',
              actions: [
                { type: 'recordHandedOut', params: ({ event }) => event.index },
                'unlockPlan',
                answerCompleting.cursorReply,
              ],
            },
            'cursor.exhausted': {
              target: 'choosing',
              actions: ['recordExhausted', answerCompleting.cursorReply],
            },
            'cursor.rejected': { target: 'choosing', actions: answerCompleting.cursorReply },
          },
        },
        executing: {
          description:
            'External calls run through executeTool; call_agent to different agents concurrently.',
          on: {
            // The batch's last result takes the commander on in the same transition.
            'xstate.done.actor.*': [
              {
                guard: { type: 'finishesBatch', params: batchDoneOf },
                target: 'choosing',
                actions: { type: 'finishBatch', params: batchDoneOf },
              },
              { actions: { type: 'recordBatchResult', params: batchDoneOf } },
            ],
            'xstate.error.actor.*': {
              target: '#commander.failed',
              actions: [failFromError, 'closeOpenCalls'],
            },
          },
        },
      },
    },
    holdingRoute: {
      description:
        'A router task succeeded: the step gate may hold before its chosen route (or none) takes effect (--break route).',
      invoke: {
        src: 'routeGate',
        input: routeGateInput,
        onDone: { target: 'completed' },
        onError: { target: 'failed', actions: failFromError },
      },
    },
    completed: {
      description:
        'task_complete was accepted: the task succeeded, or failed as the commander said.',
      type: 'final',
    },
    failed: {
      description:
        'The commander could not finish: provider or tool infrastructure error, nudges, limits.',
      type: 'final',
    },
  },
  output: ({ context }) => ({
    completion: context.completion,
    failure: context.failure,
    output: context.output,
    itemOutputs: context.itemOutputs,
    plan: context.plan,
    messages: context.messages,
    turns: context.turns,
  }),
});
