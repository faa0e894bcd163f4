/**
 * One line of the plain log per meaningful event: `00:03.2 task:analyze  started (depends on
 * fetch)`. Pure: the line depends only on the event and the state observed so far.
 */
import { formatDollars } from '../../models/cost.ts';
import { declinedMessage, isDeclined } from '../../models/stop-reasons.ts';
import type { BudgetAmounts, EventOf, MissionEvent } from '../../base/events.ts';
import { finishedTasks, skipText, taskKey, type LogState } from './log-state.ts';
import {
  compactJson,
  formatCount,
  formatDuration,
  formatElapsed,
  painter,
  shorten,
  type Painter,
} from '../../present/plain-text.ts';

/** How long argument and result excerpts may be. */
const EXCERPT = 80;

/** The line for an event (no newline), or undefined when the event is not worth a line. */
export function formatEventLine(
  event: MissionEvent,
  state: LogState,
  paint: Painter = painter(false),
): string | undefined {
  const message = describeEvent(event, state, paint);
  if (message === undefined) return undefined;
  const elapsed = formatElapsed(Date.parse(event.time) - (state.startMs ?? Date.parse(event.time)));
  return `${paint('dim', elapsed)} ${paint('accent', event.actor)}  ${message}`;
}

function describeEvent(event: MissionEvent, state: LogState, paint: Painter): string | undefined {
  switch (event.type) {
    case 'run.started':
      return `${event.resumed ? 'resumed' : 'started'} run ${event.runId} (mission ${event.mission})`;
    case 'run.finished':
      return `${outcome(event.outcome, paint)} · exit ${event.exitCode} · ${formatDuration(event.durationMs)}`;
    case 'mission.started':
      return `started${event.chainedFrom === null ? '' : ` (chained from ${event.chainedFrom})`}${inputsText(event.inputs)}`;
    case 'mission.succeeded':
      return `${paint('good', 'succeeded')} · ${missionTotals(state, event.mission)}`;
    case 'mission.failed':
      return `${paint('bad', 'failed')}: ${shorten(event.error, EXCERPT)} · ${missionTotals(state, event.mission)}`;
    case 'mission.cancelled':
      return `${paint('warn', 'cancelled')}: ${shorten(event.reason, EXCERPT)} · ${missionTotals(state, event.mission)}`;
    default:
      return describeTaskEvent(event, state, paint) ?? describeActorEvent(event, paint);
  }
}

function describeTaskEvent(
  event: MissionEvent,
  state: LogState,
  paint: Painter,
): string | undefined {
  switch (event.type) {
    case 'task.started':
      if (event.restored === true)
        return 'restored from the journal (succeeded before the restart)';
      return `started${startedBecause(event, state)}${event.iterated ? ' (iterated)' : ''}`;
    case 'task.succeeded': {
      const route = event.route === null ? '' : ` → route ${event.route}`;
      const summary = shorten(event.summary, EXCERPT);
      return `${paint('good', 'succeeded')}${route}${summary === '' ? '' : `: ${summary}`}`;
    }
    case 'task.failed':
      return `${paint('bad', 'failed')}: ${shorten(event.error, EXCERPT)}`;
    case 'task.cancelled':
      return `${paint('warn', 'cancelled')}: ${shorten(event.reason, EXCERPT)}`;
    case 'task.skipped':
      return `skipped (${skipText(event.reason, event.cause)})`;
    case 'iteration.succeeded':
      return `iteration ${position(event, state)} ${paint('good', 'succeeded')}${attemptText(event.attempt)}`;
    case 'iteration.failed':
      return `iteration ${position(event, state)} ${paint('bad', 'failed')}${attemptText(event.attempt)}: ${shorten(event.error, EXCERPT)}`;
    case 'iteration.retrying':
      return `iteration ${position(event, state)} ${paint('warn', 'retrying')} (attempt ${event.attempt}/${event.maxAttempts}): ${shorten(event.error, EXCERPT)}`;
    case 'plan.updated': {
      const done = event.subtasks.filter((subtask) => subtask.status === 'completed').length;
      const current = event.subtasks.find((subtask) => subtask.status === 'in_progress');
      return `plan ${done}/${event.subtasks.length} done${current === undefined ? '' : ` · now: ${shorten(current.title, EXCERPT)}`}`;
    }
    case 'output.submitted':
      return `output ${event.replaced ? 'replaced' : 'submitted'}${event.index === null ? '' : ` for item ${event.index + 1}`}: ${compactJson(event.output, EXCERPT)}`;
    case 'route.chosen':
      return routeText(event);
    case 'dataset.updated':
      return `dataset ${event.dataset} ${event.appended ? 'appended to' : 'set'}: ${formatCount(event.count)} items`;
    case 'dataset.locked':
      return `dataset ${event.dataset} locked: ${formatCount(event.count)} items`;
    default:
      return undefined;
  }
}

function describeActorEvent(event: MissionEvent, paint: Painter): string | undefined {
  switch (event.type) {
    case 'model.response': {
      const cost = event.unpriced ? 'unpriced' : formatDollars(BigInt(event.costPico));
      const tokens = event.usage.input + event.usage.cacheRead + event.usage.cacheWrite;
      const line = `model ${event.model.config}.${event.model.key}: ${formatCount(tokens)} in, ${formatCount(event.usage.output)} out · ${cost} · ${formatDuration(event.durationMs)}`;
      if (!isDeclined(event.stopReason)) return line;
      const detail =
        event.stopDetail === undefined ? undefined : shorten(event.stopDetail, EXCERPT);
      return `${line} · ${paint('bad', declinedMessage(event.stopReason, detail))}`;
    }
    case 'model.retry': {
      const cause =
        event.status === null ? event.reason.replaceAll('_', ' ') : `HTTP ${event.status}`;
      return `${paint('warn', 'retry')} ${event.attempt} in ${formatDuration(event.waitMs)}: ${cause} · ${shorten(event.message, EXCERPT)}`;
    }
    case 'tool.called':
      return `→ ${event.tool} ${argumentsText(event.arguments)}`.trimEnd();
    case 'tool.completed':
      return event.isError
        ? `${paint('bad', '✗')} ${event.tool}: ${shorten(event.result, EXCERPT)}`
        : undefined;
    case 'question.asked':
      return `question from ${event.askedBy}: ${shorten(event.question, EXCERPT)}`;
    case 'question.answered':
      return `answer: ${shorten(event.answer, EXCERPT)}`;
    case 'budget.warning':
      return `${paint('warn', 'budget warning')} (${event.scope} ${event.subject}): ${amounts(event)}`;
    case 'budget.exceeded':
      return `${paint('bad', 'budget exceeded')} (${event.scope} ${event.subject}): ${amounts(event)}`;
    case 'gate.paused':
      return `paused before ${event.point.kind}${event.point.tool === undefined ? '' : ` ${event.point.tool}`}${event.breakpoint === null ? '' : ` (breakpoint ${event.breakpoint})`}`;
    case 'gate.resumed':
      return `resumed (${event.how})`;
    case 'warning':
      return `${paint('warn', 'warning')}: ${event.message}`;
    default:
      return undefined;
  }
}

function outcome(value: 'succeeded' | 'failed' | 'cancelled', paint: Painter): string {
  return paint(value === 'succeeded' ? 'good' : value === 'failed' ? 'bad' : 'warn', value);
}

function inputsText(inputs: Record<string, unknown>): string {
  return Object.keys(inputs).length === 0 ? '' : ` · inputs ${compactJson(inputs, EXCERPT)}`;
}

/** `12 tasks · 48,210 tokens · $0.4121` (`+ unpriced` when some model had no price). */
export function missionTotals(state: LogState, mission: string): string {
  const tasks = finishedTasks(state, mission).length;
  const unpriced = state.unpriced ? ' + unpriced' : '';
  return `${tasks} task${tasks === 1 ? '' : 's'} · ${formatCount(state.tokens)} tokens · ${formatDollars(state.costPico)}${unpriced}`;
}

function startedBecause(event: EventOf<'task.started'>, state: LogState): string {
  if (event.activatedBy !== null) return ` (activated by ${event.activatedBy})`;
  const dependencies = state.dependencies.get(taskKey(state, event.task)) ?? [];
  return dependencies.length === 0 ? '' : ` (depends on ${dependencies.join(', ')})`;
}

function position(event: { task: string; index: number }, state: LogState): string {
  const total = state.iterationTotals.get(taskKey(state, event.task));
  return `${event.index + 1}/${total ?? '?'}`;
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

/**
 * Tool arguments shortened: a single argument shows its value (`https://…`), several show
 * compact JSON; either way cut to the excerpt length.
 */
export function argumentsText(text: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return shorten(text, EXCERPT);
  }
  if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
    const values = Object.values(parsed);
    if (values.length === 0) return '';
    if (values.length === 1) {
      const [only] = values;
      return typeof only === 'string' ? shorten(only, EXCERPT) : compactJson(only, EXCERPT);
    }
  }
  return compactJson(parsed, EXCERPT);
}

function amounts(event: BudgetAmounts): string {
  if (event.metric === 'tokens')
    return `${formatCount(event.used)} of ${formatCount(event.limit)} tokens`;
  return `${formatDollars(BigInt(event.used))} of ${formatDollars(BigInt(event.limit))}`;
}
