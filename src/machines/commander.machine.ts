import { announceHead, answerFor } from './commander-answers.ts';
import { batchDoneOf } from './commander-batch.ts';
import { DEFAULT_COMMANDER_MAX_TURNS } from './commander-limits.ts';
import { commanderSetup, CURSOR_ID } from './commander-setup.ts';
import { acceptCallsActions, acceptReplyActions, replyOf } from './commander-reply.ts';
import { headOf, toolsOf } from './commander-context.ts';
import { failFromError } from './turn-types.ts';
import { firstItemWithoutOutput } from './dataset-cursor.machine.ts';

/**
 * A task's commander: the model⇄tool loop with every rule of tools.md ("Planning",
 * "Completion", plan first, plan lock) as a guard. A rejected call leaves plan, lock,
 * outputs and completion untouched. I/O is three named actors (`modelTurn`, `toolGate`,
 * `toolCall`) invoked or spawned by the states that wait for them, which reach the run through
 * the environment in their input; leaving the state cancels them. Effects are the `emit*`
 * actions.
 */
export const commanderMachine = commanderSetup.createMachine({
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
  initial: 'preparingTurn',
  states: {
    preparingTurn: {
      description:
        'Checks the turn cap before the next model request, and prunes or compacts the conversation when its limits are reached.',
      always: [
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
        // Decided on the reply itself, in the transition that accepts it (no eventless step).
        onDone: [
          {
            guard: { type: 'replyHitOutputLimit', params: replyOf },
            target: 'deliveringResults',
            actions: [...acceptReplyActions, 'refuseTruncatedCalls'],
          },
          {
            guard: { type: 'nudgesExhausted', params: replyOf },
            target: 'failed',
            actions: [...acceptReplyActions, 'failStoppedCallingTools'],
          },
          {
            guard: { type: 'replyHasNoToolCalls', params: replyOf },
            target: 'deliveringResults',
            actions: [...acceptReplyActions, 'nudge'],
          },
          // Its calls run; the reply counters start again in the same context update.
          { target: 'runningTools', actions: acceptCallsActions },
        ],
        onError: { target: 'failed', actions: failFromError },
      },
    },
    runningTools: {
      description: "Answers the reply's tool calls in order, each exactly once.",
      initial: 'choosing',
      states: {
        choosing: {
          description:
            'Looks at the next unanswered call: rejects it, or hands it to its rules or its actor.',
          always: [
            { guard: 'queueEmpty', target: '#commander.deliveringResults' },
            {
              guard: 'taskAlreadyCompleted',
              actions: [announceHead, answerFor.alreadyCompleted],
            },
            { guard: 'headIsUnknownTool', actions: [announceHead, answerFor.unknownTool] },
            {
              guard: 'headHasInvalidArguments',
              actions: [announceHead, answerFor.invalidArguments],
            },
            { guard: 'headNeedsPlanFirst', actions: [announceHead, answerFor.planFirst] },
            { guard: 'headIsExternal', target: 'executing', actions: 'startBatch' },
            { target: 'gating' },
          ],
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
              { guard: 'planLocked', target: 'choosing', actions: answerFor.planLocked },
              { target: 'choosing', actions: ['acceptPlan', answerFor.plan] },
            ],
            'tool.get_subtasks': { target: 'choosing', actions: answerFor.subtasks },
            'tool.complete_subtask': [
              {
                guard: 'cannotCompleteSubtask',
                target: 'choosing',
                actions: answerFor.subtaskNotCompleted,
              },
              { target: 'choosing', actions: ['completeSubtask', answerFor.subtaskCompleted] },
            ],
            'tool.submit_output': [
              { guard: 'noCurrentItem', target: 'choosing', actions: answerFor.noCurrentItem },
              { guard: 'outputInvalid', target: 'choosing', actions: answerFor.outputInvalid },
              { target: 'choosing', actions: 'acceptOutput' },
            ],
            // The checks of tools.md "Completion", in their order; the first failing one answers.
            'tool.task_complete': [
              {
                guard: 'failsWithReason',
                target: 'choosing',
                actions: ['acceptFailure', answerFor.failed],
              },
              { guard: 'failsWithoutReason', target: 'choosing', actions: answerFor.reasonMissing },
              { guard: 'summaryMissing', target: 'choosing', actions: answerFor.summaryMissing },
              { guard: 'subtasksOpen', target: 'choosing', actions: answerFor.subtasksOpen },
              { guard: 'outputMissing', target: 'choosing', actions: answerFor.outputMissing },
              {
                guard: 'datasetNotExhausted',
                target: 'choosing',
                actions: answerFor.datasetNotExhausted,
              },
              {
                guard: 'itemOutputMissing',
                target: 'choosing',
                actions: answerFor.itemOutputMissing,
              },
              { guard: 'routeMissing', target: 'choosing', actions: answerFor.routeMissing },
              {
                guard: 'missionInputsInvalid',
                target: 'choosing',
                actions: answerFor.missionInputsInvalid,
              },
              { target: 'choosing', actions: ['acceptSuccess', answerFor.succeeded] },
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
                answerFor.cursorReply,
              ],
            },
            'cursor.exhausted': {
              target: 'choosing',
              actions: ['recordExhausted', answerFor.cursorReply],
            },
            'cursor.rejected': { target: 'choosing', actions: answerFor.cursorReply },
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
    deliveringResults: {
      description:
        'Appends the results (and any note) as one user message, then continues or stops.',
      entry: 'appendResults',
      always: [
        { guard: 'taskAlreadyCompleted', target: 'completed' },
        { guard: 'outputLimitExhausted', target: 'failed', actions: 'failOutputLimit' },
        { target: 'preparingTurn' },
      ],
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
