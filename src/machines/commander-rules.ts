/**
 * The rules of tools.md as pure predicates and texts over a commander's context. The
 * commander machine names each one as a guard; the texts are what models read.
 */
import { NO_ROUTE } from '../tools/commander/index.ts';
import { formatProblem, validate, type Validation } from '../schema/index.ts';
import type { CommanderContext, CommanderRoute } from './commander-context.ts';
import { currentItem, headArguments, headOf, isSequential } from './commander-context.ts';
import { openSubtaskCount } from './plan.ts';

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

/** Tools callable before a plan exists (tools.md, "Plan first"). */
export function exemptFromPlanFirst(context: CommanderContext): boolean {
  const { call } = headOf(context);
  if (['set_subtasks', 'get_subtasks', 'dataset_next'].includes(call.name)) return true;
  return call.name === 'task_complete' && taskCompleteArguments(context).succeed === false;
}

/** Check 1 accepted: the task fails with a reason. */
export function failsWithReason(context: CommanderContext): boolean {
  const args = taskCompleteArguments(context);
  return !args.succeed && filled(args.reason);
}

/** Check 1 rejected: failing needs a reason. */
export function failsWithoutReason(context: CommanderContext): boolean {
  return !taskCompleteArguments(context).succeed;
}

/** Check 2: succeeding needs a summary. */
export function summaryMissing(context: CommanderContext): boolean {
  return !filled(taskCompleteArguments(context).summary);
}

/** Check 3: every subtask completed. */
export function subtasksOpen(context: CommanderContext): boolean {
  return openSubtaskCount(context.plan) > 0;
}

/** Check 4: a non-iterated (or single-item) task with an output schema has an accepted output. */
export function outputMissing(context: CommanderContext): boolean {
  return (
    context.task.outputSchema !== undefined && !isSequential(context) && context.output === null
  );
}

/** Check 5, first half: a sequential task's cursor answered `exhausted`. */
export function datasetNotExhausted(context: CommanderContext): boolean {
  return isSequential(context) && context.dataset?.exhausted !== true;
}

/** Check 5, second half: the first handed-out item without an accepted output, if any. */
export function itemWithoutOutput(context: CommanderContext): number | undefined {
  if (!isSequential(context) || context.task.outputSchema === undefined) return undefined;
  const handedOut = context.dataset?.handedOut ?? [];
  return handedOut.find((index) => !(index in context.itemOutputs));
}

/** Check 6, first half: a router task names its route. */
export function routeMissing(context: CommanderContext): boolean {
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
export function missionInputProblems(context: CommanderContext): string[] {
  const route = chosenMissionRoute(context);
  if (route?.inputSchema === undefined) return [];
  const inputs = taskCompleteArguments(context).mission_inputs ?? {};
  // Checked as the chained mission will check them when it starts: defaults applied.
  return validate(route.inputSchema, inputs, { applyDefaults: true }).problems.map(formatProblem);
}

/** The route recorded on success: the chosen key; null for `none` and without a router. */
export function recordedRoute(context: CommanderContext): string | null {
  const route = taskCompleteArguments(context).route;
  return route === undefined || route === NO_ROUTE ? null : route;
}

/** Texts of rejected `task_complete` checks. */
export const completionErrors = {
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
export function checkedOutput(context: CommanderContext): Validation {
  const output = headArguments(context).output;
  const schema = context.task.outputSchema;
  if (schema === undefined) return { value: output, problems: [] };
  return validate(schema, output, { applyDefaults: true });
}

/** The problems of the head `submit_output` call's output, as the model reads them. */
export function outputProblems(context: CommanderContext): string[] {
  return checkedOutput(context).problems.map(formatProblem);
}

/** Why a sequential task cannot take an output now, or null when an item is current. */
export function noCurrentItemError(context: CommanderContext): string | null {
  if (!isSequential(context) || currentItem(context) !== null) return null;
  return context.dataset?.exhausted === true
    ? 'no current item: the dataset is exhausted'
    : 'no current item: call dataset_next first';
}
