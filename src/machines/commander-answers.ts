/**
 * The results the commander's rules give to the head call, as `answer` action objects.
 * Parameters are resolved in order with the transition's other actions, so an answer
 * listed after an accepting action reads the updated context.
 */
import { toolResult } from '../tools/tool-result.ts';
import type { CommanderContext, CommanderEvent } from './commander-context.ts';
import { headOf, isSequential, toolsOf } from './commander-context.ts';
import {
  completionErrors,
  itemWithoutOutput,
  missionInputProblems,
  noCurrentItemError,
  outputProblems,
} from './commander-rules.ts';
import {
  completeCurrentSubtask,
  currentSubtask,
  openSubtaskCount,
  planFirstError,
  planLockedError,
  subtasksOpenError,
} from './plan.ts';

/** What an `answer` action gives the head call. */
export interface AnswerParams {
  content: string;
  isError: boolean;
}

type Resolver = (args: { context: CommanderContext; event: CommanderEvent }) => AnswerParams;

const answer = (params: Resolver) => ({ type: 'answer' as const, params });
const rejectWith = (message: (context: CommanderContext) => string) =>
  answer(({ context }) => ({ content: toolResult.error(message(context)), isError: true }));
const okWith = (fields: (context: CommanderContext) => Record<string, unknown>) =>
  answer(({ context }) => ({ content: toolResult.ok(fields(context)), isError: false }));

/**
 * Announces the head call (`emitToolCalled`) straight from the transition: an action with
 * computed params costs less than an `enqueueActions` wrapper around the same one effect.
 */
export const announceHead = {
  type: 'emitToolCalled' as const,
  params: ({ context }: { context: CommanderContext }) => ({ call: headOf(context).call }),
};

/** The `answer` action object of every rule outcome, by name (used in the machine config). */
export const answerFor = {
  alreadyCompleted: rejectWith(() => 'task already completed'),
  unknownTool: rejectWith(
    (context) =>
      `unknown tool ${JSON.stringify(headOf(context).call.name)}; available: ${toolsOf(context)
        .map((tool) => tool.name)
        .join(', ')}`,
  ),
  invalidArguments: answer(({ context }) => {
    const { call, parsed } = headOf(context);
    const problems = parsed !== null && !parsed.ok ? parsed.problems : [];
    return {
      content: toolResult.error(`invalid arguments for ${call.name}`, { problems }),
      isError: true,
    };
  }),
  planFirst: rejectWith((context) => planFirstError(headOf(context).call.name)),
  planLocked: rejectWith((context) => planLockedError(context.plan, isSequential(context))),
  plan: okWith((context) => ({ subtasks: context.plan })),
  subtasks: okWith((context) =>
    context.plan === null
      ? { subtasks: [], note: 'no plan yet: call set_subtasks' }
      : { subtasks: context.plan },
  ),
  subtaskNotCompleted: rejectWith((context) => {
    const step = completeCurrentSubtask(context.plan);
    return step.ok ? '' : step.error;
  }),
  /** Listed after `completeSubtask`: subtasks complete in order, so the one before `next` was it. */
  subtaskCompleted: okWith((context) => {
    const plan = context.plan ?? [];
    const next = currentSubtask(plan);
    const completed = plan[(next?.index ?? plan.length) - 1];
    return {
      completed:
        completed === undefined ? null : { index: completed.index, title: completed.title },
      next: next === undefined ? null : { index: next.index, title: next.title },
      remaining: openSubtaskCount(plan),
    };
  }),
  noCurrentItem: rejectWith((context) => noCurrentItemError(context) ?? ''),
  outputInvalid: answer(({ context }) => ({
    content: toolResult.error('output does not match the schema', {
      problems: outputProblems(context),
    }),
    isError: true,
  })),
  failed: okWith(() => ({ outcome: 'failed' })),
  succeeded: okWith((context) => ({
    outcome: 'succeeded',
    route: context.completion?.route ?? null,
  })),
  reasonMissing: rejectWith(() => completionErrors.reasonMissing),
  summaryMissing: rejectWith(() => completionErrors.summaryMissing),
  subtasksOpen: rejectWith((context) => subtasksOpenError(context.plan)),
  outputMissing: rejectWith(() => completionErrors.outputMissing),
  datasetNotExhausted: rejectWith(() => completionErrors.datasetNotExhausted),
  itemOutputMissing: rejectWith(
    (context) => `submit_output for item ${String(itemWithoutOutput(context))} first`,
  ),
  routeMissing: rejectWith(completionErrors.routeMissing),
  missionInputsInvalid: answer(({ context }) => ({
    content: toolResult.error(completionErrors.missionInputs(context), {
      problems: missionInputProblems(context),
    }),
    isError: true,
  })),
  /** The cursor's reply to `dataset_next`, whichever it was. */
  cursorReply: answer(({ event }) => {
    if (event.type === 'cursor.handedOut') {
      return {
        content: toolResult.ok({ index: event.index, total: event.total, item: event.item }),
        isError: false,
      };
    }
    if (event.type === 'cursor.exhausted') {
      return {
        content: toolResult.status('exhausted', { total: event.total, processed: event.processed }),
        isError: false,
      };
    }
    const error = event.type === 'cursor.rejected' ? event.error : 'dataset_next got no answer';
    return { content: toolResult.error(error), isError: true };
  }),
};
