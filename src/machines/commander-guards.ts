/**
 * The commander's guards, one per rule. Each is a pure predicate over the context (and,
 * for the head call, the arguments already parsed into the queue).
 */
import type { CommanderContext } from './commander-context.ts';
import { EXTERNAL_TOOLS, headOf } from './commander-context.ts';
import {
  datasetNotExhausted,
  exemptFromPlanFirst,
  failsWithReason,
  failsWithoutReason,
  itemWithoutOutput,
  missionInputProblems,
  noCurrentItemError,
  outputMissing,
  outputProblems,
  routeMissing,
  subtasksOpen,
  summaryMissing,
} from './commander-rules.ts';
import { MAX_NUDGES, MAX_OUTPUT_LIMIT_HITS } from './commander-limits.ts';
import { completeCurrentSubtask } from './plan.ts';
import { contextCutDueOf } from './commander-context-cut.ts';
import type { ModelTurnOutput } from './turn-types.ts';
import type { BatchDone } from './commander-batch.ts';

type Guard = (args: { context: CommanderContext }) => boolean;

const onContext =
  (predicate: (context: CommanderContext) => boolean): Guard =>
  ({ context }) =>
    predicate(context);

/** Every guard of the commander machine, by the name its transitions use. */
export const commanderGuards = {
  turnCapReached: onContext((context) => context.turns >= context.limits.maxTurns),
  replyHitOutputLimit: (_: unknown, reply: ModelTurnOutput) => reply.stopReason === 'max_tokens',
  replyHasNoToolCalls: (_: unknown, reply: ModelTurnOutput) =>
    !reply.message.parts.some((part) => part.type === 'tool_call'),
  contextOverLimit: onContext(contextCutDueOf),
  outputLimitExhausted: onContext(
    (context) => context.streaks.outputLimitHits >= MAX_OUTPUT_LIMIT_HITS,
  ),
  /** A reply without tool calls after the last nudge allowed. */
  nudgesExhausted: ({ context }: { context: CommanderContext }, reply: ModelTurnOutput) =>
    context.streaks.nudges >= MAX_NUDGES &&
    !reply.message.parts.some((part) => part.type === 'tool_call'),
  queueEmpty: onContext((context) => context.queue.length === 0),
  taskAlreadyCompleted: onContext((context) => context.completion !== null),
  headIsUnknownTool: onContext((context) => headOf(context).parsed === null),
  headHasInvalidArguments: onContext((context) => headOf(context).parsed?.ok === false),
  headNeedsPlanFirst: onContext(
    (context) => context.plan === null && !exemptFromPlanFirst(context),
  ),
  headIsExternal: onContext((context) => EXTERNAL_TOOLS.has(headOf(context).call.name)),
  planLocked: onContext((context) => context.planLocked),
  cannotCompleteSubtask: onContext((context) => !completeCurrentSubtask(context.plan).ok),
  noCurrentItem: onContext((context) => noCurrentItemError(context) !== null),
  outputInvalid: onContext((context) => outputProblems(context).length > 0),
  failsWithReason: onContext(failsWithReason),
  failsWithoutReason: onContext(failsWithoutReason),
  summaryMissing: onContext(summaryMissing),
  subtasksOpen: onContext(subtasksOpen),
  outputMissing: onContext(outputMissing),
  datasetNotExhausted: onContext(datasetNotExhausted),
  itemOutputMissing: onContext((context) => itemWithoutOutput(context) !== undefined),
  routeMissing: onContext(routeMissing),
  missionInputsInvalid: onContext((context) => missionInputProblems(context).length > 0),
  /** `event` is the result of the batch's last open call. */
  finishesBatch: ({ context }: { context: CommanderContext }, event: BatchDone) =>
    context.batch.every((entry) =>
      entry.actorId === event.id ? entry.result === null : entry.result !== null,
    ) && context.batch.some((entry) => entry.actorId === event.id),
};
