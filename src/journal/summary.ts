/**
 * What `sortie show RUN_ID` reports, computed from a journal's events alone: missions, tasks
 * (status, summary, output, items), costs per task and per model, and errors.
 */
import { addUsage, emptyUsage, totalTokens } from '../models/usage.ts';
import type { Usage } from '../models/model-types.ts';
import { parseActorId, type EventOf, type MissionEvent } from '../base/events.ts';
import { entryOf } from '../base/per-object.ts';
import { modelLabel } from '../base/model-label.ts';
import { budgetChangeText } from '../present/event-text-actor.ts';
import { isForkPoint } from './fork-journal.ts';
import { RunTotalsTally } from './run-totals.ts';
import { TaskDurations } from './task-durations.ts';
import type {
  ActorForkPoints,
  MissionSummary,
  ModelSpending,
  RunSummary,
  Spending,
  TaskSummary,
} from './summary-types.ts';

export type * from './summary-types.ts';

/**
 * Summarises a run's journal. `unfinished` is the status of a run whose last start has no
 * `run.finished` (the caller knows whether its writer still lives); default `interrupted`.
 */
export function summarizeRun(
  events: readonly MissionEvent[],
  unfinished: 'running' | 'interrupted' = 'interrupted',
): RunSummary {
  const builder = new SummaryBuilder(unfinished);
  for (const event of events) builder.add(event);
  return builder.result();
}

/** `summarizeRun` over a journal's stream of lines (a big journal is never held in memory). */
export async function summarizeEventStream(
  lines: AsyncIterable<{ event: MissionEvent }>,
  unfinished: 'running' | 'interrupted' = 'interrupted',
): Promise<RunSummary> {
  const builder = new SummaryBuilder(unfinished);
  for await (const { event } of lines) builder.add(event);
  return builder.result();
}

function emptySpending(): Spending {
  return { turns: 0, usage: emptyUsage(), tokens: 0, costPico: 0n, unpriced: false };
}

function spend(target: Spending, usage: Usage, costPico: string, unpriced: boolean): void {
  target.turns += 1;
  target.usage = addUsage(target.usage, usage);
  target.tokens = totalTokens(target.usage);
  target.costPico += BigInt(costPico);
  target.unpriced ||= unpriced;
}

class SummaryBuilder {
  private readonly summary: RunSummary;
  private readonly tasks = new Map<string, TaskSummary>();
  private readonly models = new Map<string, ModelSpending>();
  private readonly missions = new Map<string, MissionSummary>();
  private readonly forkPoints = new Map<string, ActorForkPoints>();
  /** The mission whose tasks the next task events belong to. */
  private currentMission = '';
  /** A `run.forked` came last: the next `run.started` (resumed) is the fork's own start. */
  private forkStarting = false;
  /** The run's duration over its sessions (crashed ones included). */
  private readonly totals = new RunTotalsTally();
  /** Each task's time over the sessions, for a task that ran in parts. */
  private readonly taskDurations = new TaskDurations();

  constructor(private readonly unfinished: 'running' | 'interrupted') {
    this.summary = {
      runId: '',
      mission: '',
      status: unfinished,
      startedAt: '',
      durationMs: 0,
      resumed: false,
      forkedFrom: null,
      missions: [],
      tasks: [],
      models: [],
      budgetRaises: [],
      errors: [],
      warnings: [],
      forkPoints: [],
      ...emptySpending(),
    };
  }

  add(event: MissionEvent): void {
    const summary = this.summary;
    if (summary.runId === '') summary.runId = event.runId;
    if (summary.startedAt === '') summary.startedAt = event.time;
    this.totals.add(event);
    const wholeMs = this.taskDurations.add(event, this.currentMission);
    this.addForkPoint(event);
    switch (event.type) {
      case 'run.started':
        if (summary.mission === '') summary.mission = event.mission;
        summary.resumed ||= event.resumed && !this.forkStarting;
        this.forkStarting = false;
        summary.status = this.unfinished;
        break;
      case 'run.forked':
        // A fork starts when it is made; what it copied happened in its parent.
        summary.forkedFrom = { runId: event.parentRunId, seq: event.atSeq };
        summary.startedAt = event.time;
        summary.resumed = false;
        this.forkStarting = true;
        break;
      case 'run.finished':
        summary.status = event.outcome;
        break;
      case 'mission.started':
        this.currentMission = event.mission;
        this.missions.set(event.mission, {
          name: event.mission,
          status: 'running',
          chainedFrom: event.chainedFrom,
        });
        break;
      case 'mission.succeeded':
      case 'mission.failed':
      case 'mission.cancelled':
        this.finishMission(event);
        break;
      case 'model.response':
        this.addResponse(event);
        break;
      case 'budget.raised':
        summary.budgetRaises.push(`${event.scope} ${event.subject}: ${budgetChangeText(event)}`);
        break;
      case 'budget.exceeded':
        summary.errors.push(`${event.scope} ${event.subject}: ${event.message}`);
        break;
      case 'warning':
        summary.warnings.push(event.message);
        break;
      default:
        this.addTaskEvent(event, wholeMs);
    }
  }

  result(): RunSummary {
    const summary = this.summary;
    summary.durationMs = this.totals.durationMs();
    summary.missions = [...this.missions.values()];
    summary.tasks = [...this.tasks.values()];
    summary.models = [...this.models.values()];
    summary.forkPoints = [...this.forkPoints.values()];
    return summary;
  }

  private addForkPoint(event: MissionEvent): void {
    if (!isForkPoint(event)) return;
    const points = entryOf(this.forkPoints, event.actor, () => ({
      actor: event.actor,
      starts: [],
      replies: [],
      results: [],
    }));
    const list =
      event.type === 'mission.started'
        ? points.starts
        : event.type === 'model.response'
          ? points.replies
          : points.results;
    list.push(event.seq);
  }

  private finishMission(
    event: EventOf<'mission.succeeded'> | EventOf<'mission.failed'> | EventOf<'mission.cancelled'>,
  ): void {
    const mission = this.missions.get(event.mission);
    if (mission === undefined) return;
    mission.durationMs = event.durationMs;
    if (event.type === 'mission.succeeded') mission.status = 'succeeded';
    if (event.type === 'mission.failed') {
      mission.status = 'failed';
      mission.error = event.error;
      this.summary.errors.push(`mission ${event.mission}: ${event.error}`);
    }
    if (event.type === 'mission.cancelled') {
      mission.status = 'cancelled';
      mission.error = event.reason;
    }
  }

  private addResponse(event: EventOf<'model.response'>): void {
    spend(this.summary, event.usage, event.costPico, event.unpriced);
    const name = modelLabel(event.model);
    const model = entryOf(this.models, name, () => ({
      model: name,
      provider: event.model.provider,
      apiName: event.model.apiName,
      ...emptySpending(),
    }));
    spend(model, event.usage, event.costPico, event.unpriced);
    const parsed = parseActorId(event.actor);
    if (parsed !== undefined && parsed.name !== '') {
      spend(this.task(parsed.name), event.usage, event.costPico, event.unpriced);
    }
  }

  /** `wholeMs`: a task end's time over all its parts (undefined: a restore's end). */
  private addTaskEvent(event: MissionEvent, wholeMs: number | undefined): void {
    switch (event.type) {
      case 'task.started': {
        const task = this.task(event.task);
        task.status = 'running';
        task.iterated = event.iterated;
        // A task started again (resumed after a cancel or failure) is no longer what ended it.
        delete task.error;
        break;
      }
      case 'task.succeeded': {
        const task = this.task(event.task);
        Object.assign(task, {
          status: 'succeeded',
          summary: event.summary,
          output: event.output,
          route: event.route,
          durationMs: wholeMs ?? task.durationMs ?? event.durationMs,
        });
        delete task.error;
        break;
      }
      case 'task.failed':
        Object.assign(this.task(event.task), {
          status: 'failed',
          error: event.error,
          durationMs: wholeMs ?? event.durationMs,
        });
        this.summary.errors.push(`task ${event.task}: ${event.error}`);
        break;
      case 'task.cancelled':
        Object.assign(this.task(event.task), { status: 'cancelled', error: event.reason });
        break;
      case 'task.skipped':
        Object.assign(this.task(event.task), {
          status: 'skipped',
          skipReason: event.reason,
          ...(event.cause === null ? {} : { skipCause: event.cause }),
        });
        break;
      case 'iteration.started':
      case 'iteration.succeeded':
      case 'iteration.failed':
        this.addItemEvent(event);
        break;
    }
  }

  private addItemEvent(
    event:
      EventOf<'iteration.started'> | EventOf<'iteration.succeeded'> | EventOf<'iteration.failed'>,
  ): void {
    const task = this.task(event.task);
    task.iterated = true;
    let item = task.items.find((candidate) => candidate.index === event.index);
    if (item === undefined) {
      item = { index: event.index, itemId: event.itemId, status: 'running', attempts: 0 };
      task.items.push(item);
      task.items.sort((left, right) => left.index - right.index);
    }
    item.attempts = Math.max(item.attempts, event.attempt);
    if (event.type === 'iteration.started') {
      item.status = 'running';
      delete item.error;
    } else if (event.type === 'iteration.succeeded') {
      item.status = 'succeeded';
      item.output = event.output;
    } else {
      item.status = 'failed';
      item.error = event.error;
      if (event.final)
        this.summary.errors.push(
          `task ${event.task} item ${event.index} (${event.itemId}): ${event.error}`,
        );
    }
  }

  private task(name: string): TaskSummary {
    return entryOf(this.tasks, `${this.currentMission}/${name}`, () => ({
      mission: this.currentMission,
      name,
      status: 'running',
      iterated: false,
      items: [],
      ...emptySpending(),
    }));
  }
}
