/**
 * The completion rules of tools.md ("Completion", routes, outputs, datasets): the checks of
 * `task_complete` in their order, `submit_output`, and the dataset cursor's answers to
 * `dataset_next`, as guards, context updates and the texts models read back.
 */
import { NO_ROUTE } from '../tools/commander/index.ts';
import { toolResult } from '../tools/tool-result.ts';
import { formatProblem, validate, type Validation } from '../schema/index.ts';
import type { CommanderContext, CommanderRoute } from './commander-context.ts';
import {
  commanderAction,
  commanderAssign,
  currentItem,
  CURSOR_ID,
  headArguments,
  isSequential,
  workingItem,
} from './commander-context.ts';
import { answer, answerHead, okWith, rejectWith } from './commander-answering.ts';
import { openSubtaskCount, subtasksOpenError } from './plan.ts';

/** `task_complete` arguments after schema validation (defaults applied). */
export interface TaskCompleteArguments {
  summary?: string;
  succeed: boolean;
  reason?: string;
  route?: string;
  mission_inputs?: Record<string, unknown>;
}

/** The head call's `task_complete` arguments. */
export function taskCompleteArguments(context: CommanderContext): TaskCompleteArguments {
  return headArguments(context) as unknown as TaskCompleteArguments;
}

function filled(text: string | undefined): boolean {
  return text !== undefined && text.trim() !== '';
}

/** Check 1 accepted: the task fails with a reason. */
function failsWithReason(context: CommanderContext): boolean {
  const args = taskCompleteArguments(context);
  return !args.succeed && filled(args.reason);
}

/** Check 1 rejected: failing needs a reason. */
function failsWithoutReason(context: CommanderContext): boolean {
  return !taskCompleteArguments(context).succeed;
}

/** Check 2: succeeding needs a summary. */
function summaryMissing(context: CommanderContext): boolean {
  return !filled(taskCompleteArguments(context).summary);
}

/** Check 3: every subtask completed. */
function subtasksOpen(context: CommanderContext): boolean {
  return openSubtaskCount(context.plan) > 0;
}

/** Check 4: a non-iterated (or single-item) task with an output schema has an accepted output. */
function outputMissing(context: CommanderContext): boolean {
  return (
    context.task.outputSchema !== undefined && !isSequential(context) && context.output === null
  );
}

/** Check 5, first half: a sequential task's cursor answered `exhausted`. */
function datasetNotExhausted(context: CommanderContext): boolean {
  return isSequential(context) && context.dataset?.exhausted !== true;
}

/** Check 5, second half: the first handed-out item without an accepted output, if any. */
function itemWithoutOutput(context: CommanderContext): number | undefined {
  if (!isSequential(context) || context.task.outputSchema === undefined) return undefined;
  const handedOut = context.dataset?.handedOut ?? [];
  return handedOut.find((index) => !(index in context.itemOutputs));
}

/** Check 6, first half: a router task names its route. */
function routeMissing(context: CommanderContext): boolean {
  return (
    (context.task.routes ?? []).length > 0 && taskCompleteArguments(context).route === undefined
  );
}

/** The route a `task_complete` call chose, when it targets a mission. */
function chosenMissionRoute(context: CommanderContext): CommanderRoute | undefined {
  const chosen = taskCompleteArguments(context).route;
  return context.task.routes?.find((route) => route.key === chosen && route.kind === 'mission');
}

/** Check 6, second half: `mission_inputs` problems against the target mission's inputs. */
function missionInputProblems(context: CommanderContext): string[] {
  const route = chosenMissionRoute(context);
  if (route?.inputSchema === undefined) return [];
  const inputs = taskCompleteArguments(context).mission_inputs ?? {};
  // Checked as the chained mission will check them when it starts: defaults applied.
  return validate(route.inputSchema, inputs, { applyDefaults: true }).problems.map(formatProblem);
}

/** The route recorded on success: the chosen key; null for `none` and without a router. */
function recordedRoute(context: CommanderContext): string | null {
  const route = taskCompleteArguments(context).route;
  return route === undefined || route === NO_ROUTE ? null : route;
}

/** Texts of rejected `task_complete` checks. */
const completionErrors = {
  reasonMissing: 'reason is required when succeed is false',
  summaryMissing:
    'summary is required when succeed is true: say what was done and found (dependent tasks receive it)',
  outputMissing: 'no output submitted: call submit_output before task_complete',
  datasetNotExhausted:
    'the dataset is not finished: call dataset_next until it returns "exhausted", then task_complete',
  routeMissing: (context: CommanderContext): string =>
    `route is required: one of ${[...(context.task.routes ?? []).map((route) => route.key), NO_ROUTE].join(', ')}`,
  missionInputs: (context: CommanderContext): string =>
    `mission_inputs do not match the inputs of mission ${JSON.stringify(chosenMissionRoute(context)?.key ?? '')}`,
};

/**
 * The output of the head `submit_output` call validated against the task's schema, defaults
 * applied: `value` is what an accepted output records.
 */
function checkedOutput(context: CommanderContext): Validation {
  const output = headArguments(context).output;
  const schema = context.task.outputSchema;
  if (schema === undefined) return { value: output, problems: [] };
  return validate(schema, output, { applyDefaults: true });
}

/** The problems of the head `submit_output` call's output, as the model reads them. */
function outputProblems(context: CommanderContext): string[] {
  return checkedOutput(context).problems.map(formatProblem);
}

/** Why a sequential task cannot take an output now, or null when an item is current. */
function noCurrentItemError(context: CommanderContext): string | null {
  if (!isSequential(context) || currentItem(context) !== null) return null;
  return context.dataset?.exhausted === true
    ? 'no current item: the dataset is exhausted'
    : 'no current item: call dataset_next first';
}

type Guard = (args: { context: CommanderContext }) => boolean;
const onContext =
  (predicate: (context: CommanderContext) => boolean): Guard =>
  ({ context }) =>
    predicate(context);

/** The completion guards, one per check. */
export const completingGuards = {
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
};

/** The context updates of `task_complete`, `submit_output` and the cursor's answers. */
export const completingActions = {
  acceptFailure: commanderAssign(({ context }: { context: CommanderContext }) => {
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
  acceptSuccess: commanderAssign(({ context }: { context: CommanderContext }) => {
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
  /** The output is recorded (for the current item when sequential) and the call answered. */
  acceptOutput: commanderAction(({ context, enqueue }) => {
    const output = checkedOutput(context).value;
    const index = workingItem(context);
    const sequential = isSequential(context);
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
  /** `dataset_next` goes to the cursor child with the facts its preconditions need. */
  askCursor: commanderAction(({ context, self, enqueue }) => {
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
  /** The cursor handed out an item: it is the current one. */
  recordHandedOut: commanderAssign<number>(({ context }, index) => ({
    dataset: {
      current: index,
      handedOut: [...(context.dataset?.handedOut ?? []), index],
      exhausted: false,
    },
  })),
  /** The cursor answered `exhausted`: the last item was left behind. */
  recordExhausted: commanderAssign(({ context }: { context: CommanderContext }) => ({
    dataset: { current: null, handedOut: context.dataset?.handedOut ?? [], exhausted: true },
  })),
};

/** The results of `task_complete`, `submit_output` and `dataset_next`, by outcome. */
export const answerCompleting = {
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
