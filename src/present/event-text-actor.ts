/** How model, conversation, tool, question (to commanders and the person), budget, gate and warning events read. */
import type {
  BudgetAmounts,
  BudgetLimitChange,
  BudgetRaiseHow,
  EventOf,
  GatePoint,
  MissionEventType,
} from '../base/events.ts';
import { modelLabel } from '../base/model-label.ts';
import { declinedMessage, isDeclined } from '../models/stop-reasons.ts';
import { firstLine } from './columns.ts';
import { EXCERPT, noLine, type EventFormTable } from './event-forms.ts';
import { humanAnsweredText, humanAskedText } from './human-text.ts';
import { argumentsText, messageText, toolCallText, toolResultText } from './message-text.ts';
import { formatDollars } from './money.ts';
import { countOf, formatCount, formatDuration } from './numbers.ts';
import type { WorkEventType } from './event-text-run.ts';
import type { Painter } from './paint.ts';

type ActorEventType = Exclude<MissionEventType, WorkEventType>;

function responseText(event: EventOf<'model.response'>, paint: Painter): string {
  const cost = event.unpriced ? 'unpriced' : formatDollars(BigInt(event.costPico));
  const tokens = event.usage.input + event.usage.cacheRead + event.usage.cacheWrite;
  const line = `model ${modelLabel(event.model)}: ${formatCount(tokens)} in, ${formatCount(event.usage.output)} out · ${cost} · ${formatDuration(event.durationMs)}`;
  if (!isDeclined(event.stopReason)) return line;
  const detail = event.stopDetail === undefined ? undefined : firstLine(event.stopDetail, EXCERPT);
  return `${line} · ${paint('bad', declinedMessage(event.stopReason, detail))}`;
}

/** `looping: web_get called 3 times with the same arguments · https://…` (arguments, if any). */
function signalText(event: EventOf<'signal.raised'>, { paint }: { paint: Painter }): string {
  const args = event.arguments === undefined ? '' : argumentsText(event.arguments);
  return args === '' ? paint('warn', event.message) : `${paint('warn', event.message)} · ${args}`;
}

function retryText(event: EventOf<'model.retry'>, paint: Painter): string {
  const cause = event.status === null ? event.reason.replaceAll('_', ' ') : `HTTP ${event.status}`;
  return `${paint('warn', 'retry')} ${event.attempt} in ${formatDuration(event.waitMs)}: ${cause} · ${firstLine(event.message, EXCERPT)}`;
}

/** `assistant: first line` of an appended message, naming a question fork's conversation. */
function appendedText(event: EventOf<'message.appended'>): string {
  const fork = event.conversation === event.actor ? '' : ` (${event.conversation})`;
  return `${event.message.role}${fork}: ${firstLine(messageText(event.message, EXCERPT), EXCERPT)}`;
}

/** `context compacted: 12 turns → 3 (prompt of 120,400 tokens)`. */
function contextText(event: EventOf<'context.compacted'>): string {
  const turns = `${countOf(event.turnsBefore, 'turn')} → ${event.turnsAfter}`;
  const prompt =
    event.inputTokens === null ? '' : ` (prompt of ${formatCount(event.inputTokens)} tokens)`;
  return `context ${event.kind}: ${turns}${prompt}`;
}

function amounts(event: BudgetAmounts): string {
  if (event.metric === 'tokens')
    return `${formatCount(event.used)} of ${formatCount(event.limit)} tokens`;
  return `${formatDollars(BigInt(event.used))} of ${formatDollars(BigInt(event.limit))}`;
}

/** How each way of raising reads: the person's own figure, or the step taken. */
const RAISE_HOW: Record<BudgetRaiseHow, string> = { typed: 'typed', half: '+50%', double: '×2' };

/** A raise's old and new limit and how it was chosen: `250 → 500 tokens (×2)`. */
export function budgetChangeText(event: BudgetLimitChange & { how: BudgetRaiseHow }): string {
  const change =
    event.metric === 'tokens'
      ? `${formatCount(event.from)} → ${formatCount(event.to)} tokens`
      : `${formatDollars(BigInt(event.from))} → ${formatDollars(BigInt(event.to))}`;
  return `${change} (${RAISE_HOW[event.how]})`;
}

function raisedText(event: EventOf<'budget.raised'>): string {
  return `budget raised (${event.scope} ${event.subject}): ${budgetChangeText(event)}`;
}

/**
 * `breakpoint route: paused before route publish → task publish (when: …)`: the breakpoint
 * first, so a narrow line still names it.
 */
function pausedText(event: EventOf<'gate.paused'>): string {
  const what = `paused before ${heldWhat(event.point)}`;
  return event.breakpoint === null ? what : `breakpoint ${event.breakpoint}: ${what}`;
}

/** `breakpoint tool:x set · breakpoints: tool:x, model`: the change, then the list it left. */
function breakpointsText(event: EventOf<'breakpoints.changed'>): string {
  const list = event.breakpoints.length === 0 ? 'none' : event.breakpoints.join(', ');
  return `breakpoint ${event.breakpoint} ${event.set ? 'set' : 'removed'} · breakpoints: ${list}`;
}

/** What a held point is before: `tool NAME`, `model KEY`, `route KEY → …`, `error of NAME: …`. */
function heldWhat(point: GatePoint): string {
  switch (point.kind) {
    case 'tool':
      return `tool ${point.tool ?? ''}`.trimEnd();
    case 'error':
      return `error of ${point.tool ?? ''}: ${firstLine(point.detail, EXCERPT)}`;
    default:
      return `${point.kind} ${firstLine(point.detail, EXCERPT)}`.trimEnd();
  }
}

/** `mcp "files" progress 3/10: copying` (the total and the message only when the server sent them). */
function progressText(event: EventOf<'mcp.progressed'>): string {
  const total = event.total === null ? '' : `/${event.total}`;
  const message = event.message === null ? '' : `: ${firstLine(event.message, EXCERPT)}`;
  return `mcp "${event.server}" progress ${event.progress}${total}${message}`;
}

/** `mcp "files" log warning (indexer): disk almost full`. */
function loggedText(event: EventOf<'mcp.logged'>, paint: Painter): string {
  const level = WORRYING_LEVELS.has(event.level) ? paint('warn', event.level) : event.level;
  const logger = event.logger === null ? '' : ` (${event.logger})`;
  return `mcp "${event.server}" log ${level}${logger}: ${firstLine(event.text, EXCERPT)}`;
}

/** MCP's log levels from `warning` up (syslog's). */
const WORRYING_LEVELS = new Set(['warning', 'error', 'critical', 'alert', 'emergency']);

/** Model, conversation, tool, question, budget, gate and warning events. */
export const ACTOR_FORMS: EventFormTable<ActorEventType> = {
  'model.request': {
    text: (event) =>
      `request to ${modelLabel(event.model)} · turn ${event.turn} · ${countOf(event.messageCount, 'message')}`,
    log: noLine,
  },
  'model.response': { text: (event, { paint }) => responseText(event, paint) },
  'model.retry': { text: (event, { paint }) => retryText(event, paint) },
  'model.delta': { text: (event) => firstLine(event.text, EXCERPT), log: noLine },
  'message.appended': { text: appendedText, log: noLine },
  'context.compacted': { text: contextText },
  'tool.called': { text: (event) => toolCallText(event.tool, event.arguments) },
  'tool.completed': {
    text: (event, { paint }) => toolResultText(event.tool, event.result, event.isError, paint),
    // Results are long and many; the log shows the ones that went wrong.
    log: (event, { paint }) =>
      event.isError ? toolResultText(event.tool, event.result, true, paint) : undefined,
  },
  'question.asked': {
    text: (event) => `question from ${event.askedBy}: ${firstLine(event.question, EXCERPT)}`,
  },
  'question.answered': { text: (event) => `answer: ${firstLine(event.answer, EXCERPT)}` },
  'human.asked': { text: (event) => firstLine(humanAskedText(event), EXCERPT * 2) },
  'human.answered': { text: (event) => firstLine(humanAnsweredText(event), EXCERPT * 2) },
  'mcp.progressed': { text: progressText },
  'mcp.logged': { text: (event, { paint }) => loggedText(event, paint) },
  'budget.warning': {
    text: (event, { paint }) =>
      `${paint('warn', 'budget warning')} (${event.scope} ${event.subject}): ${amounts(event)}`,
  },
  'signal.raised': { text: signalText },
  'budget.exceeded': {
    text: (event, { paint }) =>
      `${paint('bad', 'budget exceeded')} (${event.scope} ${event.subject}): ${amounts(event)}`,
  },
  'budget.raised': { text: raisedText },
  'gate.paused': { text: pausedText },
  'gate.resumed': { text: (event) => `resumed (${event.how})` },
  'breakpoints.changed': { text: breakpointsText },
  warning: { text: (event, { paint }) => `${paint('warn', 'warning')}: ${event.message}` },
};
