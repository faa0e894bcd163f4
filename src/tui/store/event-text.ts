/** One short line per event for the Events tab. */
import type { MissionEvent } from '../../base/events.ts';
import { formatDollars } from '../../present/money.ts';

const LIMIT = 160;

/** Text squeezed to one line of at most `limit` characters. */
export function oneLine(text: string, limit = LIMIT): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= limit ? flat : `${flat.slice(0, limit - 1)}…`;
}

function json(value: unknown): string {
  return value === undefined ? 'undefined' : oneLine(JSON.stringify(value) ?? 'null');
}

/** The event log's text for an event (its type and actor are shown beside it). */
export function eventText(event: MissionEvent): string {
  switch (event.type) {
    case 'run.started':
      return `mission ${event.mission}${event.resumed ? ' (resumed)' : ''}`;
    case 'run.finished':
      return `${event.outcome} · exit ${event.exitCode} · ${formatDollars(BigInt(event.costPico))}`;
    case 'mission.started':
      return event.chainedFrom === null ? event.mission : `${event.mission} ← ${event.chainedFrom}`;
    case 'mission.succeeded':
      return `${event.mission} in ${event.durationMs} ms`;
    case 'mission.failed':
      return oneLine(`${event.mission}: ${event.error}`);
    case 'mission.cancelled':
      return oneLine(`${event.mission}: ${event.reason}`);
    case 'task.started':
      return event.activatedBy === null ? event.task : `${event.task} (by ${event.activatedBy})`;
    case 'task.succeeded':
      return oneLine(`${event.task}: ${event.summary}`);
    case 'task.failed':
      return oneLine(`${event.task}: ${event.error}`);
    case 'task.cancelled':
      return oneLine(`${event.task}: ${event.reason}`);
    case 'task.skipped':
      return `${event.task}: ${event.reason}${event.cause === null ? '' : ` (${event.cause})`}`;
    case 'iteration.started':
    case 'iteration.succeeded':
      return `${event.task}[${event.index}] ${event.itemId} attempt ${event.attempt}`;
    case 'iteration.failed':
      return oneLine(`${event.task}[${event.index}] ${event.itemId}: ${event.error}`);
    case 'iteration.retrying':
      return `${event.task}[${event.index}] attempt ${event.attempt}/${event.maxAttempts}`;
    case 'plan.updated':
      return oneLine(
        event.subtasks.map((subtask) => `${subtask.status} ${subtask.title}`).join('; '),
      );
    case 'model.request':
      return `${event.model.config}.${event.model.key} turn ${event.turn} (${event.messageCount} messages)`;
    case 'model.response': {
      const stop =
        event.stopDetail === undefined
          ? event.stopReason
          : `${event.stopReason} (${event.stopDetail})`;
      return oneLine(
        `${event.model.config}.${event.model.key} ${stop} · ${event.usage.input} in / ${event.usage.output} out · ${event.unpriced ? 'unpriced' : formatDollars(BigInt(event.costPico))}`,
      );
    }
    case 'model.retry':
      return oneLine(`attempt ${event.attempt} in ${event.waitMs} ms: ${event.message}`);
    case 'model.delta':
      return oneLine(event.text);
    case 'message.appended':
      return `${event.conversation} ${event.message.role}`;
    case 'tool.called':
      return oneLine(`${event.tool} ${event.arguments}`);
    case 'tool.completed':
      return oneLine(`${event.tool}${event.isError ? ' error' : ''}: ${event.result}`);
    case 'output.submitted':
      return oneLine(
        `${event.task}${event.index === null ? '' : `[${event.index}]`} ${json(event.output)}`,
      );
    case 'route.chosen':
      return `${event.task} → ${event.targets.map((target) => target.name).join(', ') || 'none'}`;
    case 'dataset.updated':
      return `${event.dataset}: ${event.count} items`;
    case 'dataset.locked':
      return `${event.dataset} for ${event.task}: ${event.count} items`;
    case 'question.asked':
      return oneLine(`${event.task} #${event.questionIndex}: ${event.question}`);
    case 'question.answered':
      return oneLine(`${event.task} #${event.questionIndex}: ${event.answer}`);
    case 'budget.warning':
    case 'budget.exceeded':
      return `${event.scope} ${event.subject}: ${event.used}/${event.limit} ${event.metric}`;
    case 'gate.paused':
      return oneLine(
        `${event.point.kind} ${event.point.detail}${event.breakpoint === null ? '' : ` (${event.breakpoint})`}`,
      );
    case 'gate.resumed':
      return `${event.point.kind} ${event.how}`;
    case 'warning':
      return oneLine(`${event.code}: ${event.message}`);
  }
}
