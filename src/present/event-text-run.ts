/** How run, mission, task, iteration, plan, output, route and dataset events read. */
import type { EventOf, MissionEventType, Outcome, SkipReason } from '../base/events.ts';
import { firstLine } from './columns.ts';
import {
  ERROR_LINE,
  EXCERPT,
  noLine,
  type EventFormTable,
  type EventTextContext,
} from './event-forms.ts';
import { compactJson } from './json-text.ts';
import { formatCost } from './money.ts';
import { formatCount, formatDuration } from './numbers.ts';
import type { Painter } from './paint.ts';

/** The event types this file reads; event-text-actor.ts reads the others. */
export type WorkEventType = Extract<
  MissionEventType,
  | `run.${string}`
  | `mission.${string}`
  | `task.${string}`
  | `iteration.${string}`
  | `dataset.${string}`
  | 'plan.updated'
  | 'output.submitted'
  | 'route.chosen'
>;

/** A run's, mission's or task's outcome word, coloured by how it went. */
export function outcomeWord(outcome: Outcome, paint: Painter): string {
  return paint(outcome === 'succeeded' ? 'good' : outcome === 'failed' ? 'bad' : 'warn', outcome);
}

/** `upstream failed: fetch`. */
export function skipText(reason: SkipReason, cause: string | null): string {
  const words = reason.replaceAll('_', ' ');
  return cause === null ? words : `${words}: ${cause}`;
}

function inputsText(inputs: Record<string, unknown>): string {
  return Object.keys(inputs).length === 0 ? '' : ` · inputs ${compactJson(inputs, EXCERPT)}`;
}

function startedBecause(event: EventOf<'task.started'>, context: EventTextContext): string {
  if (event.activatedBy !== null) return ` (activated by ${event.activatedBy})`;
  const dependencies = context.dependencies(event.task);
  return dependencies.length === 0 ? '' : ` (depends on ${dependencies.join(', ')})`;
}

/** `iteration 3/20` (`3/?` until the dataset is locked). */
function item(event: { task: string; index: number }, context: EventTextContext): string {
  return `iteration ${event.index + 1}/${context.itemCount(event.task) ?? '?'}`;
}

function attemptText(attempt: number): string {
  return attempt > 1 ? ` (attempt ${attempt})` : '';
}

function routeText(event: EventOf<'route.chosen'>): string {
  const activated = event.targets
    .filter((target) => target.activated)
    .map((target) => (target.kind === 'mission' ? `mission ${target.name}` : target.name));
  const targets = activated.length === 0 ? 'nothing activated' : activated.join(', ');
  return event.via === 'send_to'
    ? `send_to → ${targets}`
    : `route ${event.route ?? 'none'} → ${targets}`;
}

function planText(event: EventOf<'plan.updated'>): string {
  const done = event.subtasks.filter((subtask) => subtask.status === 'completed').length;
  const current = event.subtasks.find((subtask) => subtask.status === 'in_progress');
  const now = current === undefined ? '' : ` · now: ${firstLine(current.title, EXCERPT)}`;
  return `plan ${done}/${event.subtasks.length} done${now}`;
}

/** Run, mission, task, iteration, plan, output, route and dataset events. */
export const WORK_FORMS: EventFormTable<WorkEventType> = {
  'run.started': {
    text: (event) =>
      `${event.resumed ? 'resumed' : 'started'} run ${event.runId} (mission ${event.mission})`,
  },
  'run.forked': {
    text: (event) =>
      `forked from ${event.parentRunId} at seq ${event.atSeq} (${event.at}${event.edited ? ', edited' : ''})`,
  },
  'run.finished': {
    text: (event, { paint }) =>
      `${outcomeWord(event.outcome, paint)} · exit ${event.exitCode} · ${formatDuration(event.durationMs)} · ${formatCost(BigInt(event.costPico), false)}`,
  },
  'mission.started': {
    text: (event) =>
      `started${event.chainedFrom === null ? '' : ` (chained from ${event.chainedFrom})`}${inputsText(event.inputs)}`,
  },
  'mission.succeeded': {
    text: (event, { paint, runTotals }) =>
      `${paint('good', 'succeeded')} · ${runTotals(event.mission)}`,
  },
  'mission.failed': {
    text: (event, { paint, runTotals }) =>
      `${paint('bad', 'failed')}: ${firstLine(event.error, ERROR_LINE)} · ${runTotals(event.mission)}`,
  },
  'mission.cancelled': {
    text: (event, { paint, runTotals }) =>
      `${paint('warn', 'cancelled')}: ${firstLine(event.reason, ERROR_LINE)} · ${runTotals(event.mission)}`,
  },
  'task.started': {
    text: (event, context) =>
      event.restored === true
        ? 'restored from the journal (succeeded before the restart)'
        : `started${startedBecause(event, context)}${event.iterated ? ' (iterated)' : ''}`,
  },
  'task.succeeded': {
    text: (event, { paint }) => {
      const route = event.route === null ? '' : ` → route ${event.route}`;
      const summary = firstLine(event.summary, EXCERPT);
      return `${paint('good', 'succeeded')}${route}${summary === '' ? '' : `: ${summary}`}`;
    },
  },
  'task.failed': {
    text: (event, { paint }) => `${paint('bad', 'failed')}: ${firstLine(event.error, ERROR_LINE)}`,
  },
  'task.cancelled': {
    text: (event, { paint }) =>
      `${paint('warn', 'cancelled')}: ${firstLine(event.reason, ERROR_LINE)}`,
  },
  'task.skipped': { text: (event) => `skipped (${skipText(event.reason, event.cause)})` },
  'iteration.started': {
    text: (event, context) =>
      `${item(event, context)} started: ${event.itemId}${attemptText(event.attempt)}`,
    log: noLine,
  },
  'iteration.succeeded': {
    text: (event, context) =>
      `${item(event, context)} ${context.paint('good', 'succeeded')}${attemptText(event.attempt)}`,
  },
  'iteration.failed': {
    text: (event, context) =>
      `${item(event, context)} ${context.paint('bad', 'failed')}${attemptText(event.attempt)}: ${firstLine(event.error, ERROR_LINE)}`,
  },
  'iteration.retrying': {
    text: (event, context) =>
      `${item(event, context)} ${context.paint('warn', 'retrying')} (attempt ${event.attempt}/${event.maxAttempts}): ${firstLine(event.error, ERROR_LINE)}`,
  },
  'plan.updated': { text: planText },
  'output.submitted': {
    text: (event) =>
      `output ${event.replaced ? 'replaced' : 'submitted'}${event.index === null ? '' : ` for item ${event.index + 1}`}: ${compactJson(event.output, EXCERPT)}`,
  },
  'route.chosen': { text: routeText },
  'dataset.updated': {
    text: (event) =>
      `dataset ${event.dataset} ${event.appended ? 'appended to' : 'set'}: ${formatCount(event.count)} items`,
  },
  'dataset.locked': {
    text: (event) => `dataset ${event.dataset} locked: ${formatCount(event.count)} items`,
  },
};
