/**
 * A worker's side of the runs whose items it takes: per run, the project loaded from its copy,
 * variables resolved here (keys and secrets never travel), the run services on a bus whose
 * events go to the run process, and a mission runtime. Each job then runs its item's commander
 * exactly as the run process would, continuing a try another worker left from that try's events.
 * The run process's gate, person and budgets apply through the run's control path: a gate
 * point or a question waits for the run process; a budget it finds used up stops the requests
 * here; a try it gives up is stopped. A worker that stops hands back the items that wait for
 * the run process (it may be gone): their next worker continues them from their events.
 */
import { join } from 'node:path';
import { setMaxListeners } from 'node:events';
import { loadProject } from '../config/load-project.ts';
import { requireVariables } from '../config/requirements.ts';
import type { Redactor } from '../base/redact.ts';
import { actorId, type MissionEvent } from '../base/events.ts';
import { EventBus } from '../runtime/event-bus.ts';
import type { MissionJournal } from '../journal/mission-journal.ts';
import { restoreFromJournal } from '../journal/restore.ts';
import { createAgentSession } from '../actors/agent/index.ts';
import { createMissionRuntime, type MissionRuntime } from '../actors/mission/mission-runtime.ts';
import { assemblePreparedTask } from '../actors/mission/task-preparation.ts';
import { runItemCommander } from '../actors/mission/parallel-task.ts';
import {
  ItemHandedBack,
  type EventPublisher,
  type ItemJobData,
  type ItemJobResult,
  type ModelPacing,
  type WorkerControl,
  type WorkerLink,
} from '../actors/queue/index.ts';
import { spentFromWire } from '../actors/queue/item-jobs.ts';
import { BudgetTracker } from '../runtime/budget.ts';
import type { TaskStatus } from '../runtime/task-graph.ts';
import { createRunRedactor, eventRedactor } from './run-redactor.ts';
import { budgetTracker, createRunServices, defaultModelClients } from './run-services.ts';
import type { ModelClientFactory } from '../models/create-client.ts';

/** How a worker resolves what does not travel. */
export interface WorkerSettings {
  /** `--var` values of the worker. */
  vars: Record<string, string>;
  env: Record<string, string | undefined>;
  /** Where project copies and the runs' state directories go. */
  cacheRoot: string;
  /** Prefixes this worker's request ids. */
  tag: string;
}

/** A try running here: the run process may cancel it, a stopping worker may hand it back. */
interface RunningTry {
  attempt: number;
  stop: AbortController;
  handedBack: boolean;
}

interface WorkerRun {
  runtime: MissionRuntime;
  /** The run's task states this worker knows: each task whose results a job brought succeeded. */
  statuses: Record<string, TaskStatus>;
  publisher: EventPublisher;
  control: WorkerControl;
  /** The tries running here, by `task[index]` (one try of an item at a time). */
  tries: Map<string, RunningTry>;
}

function itemKey(task: string, index: number): string {
  return `${task}[${index}]`;
}

/** The runs this worker process has taken items of. */
export class WorkerRuns {
  private readonly runs = new Map<string, Promise<WorkerRun>>();
  private readonly controller = new AbortController();
  private stopping = false;

  constructor(
    private readonly link: WorkerLink,
    private readonly settings: WorkerSettings,
  ) {
    setMaxListeners(0, this.controller.signal);
  }

  /**
   * Runs one try of one item; its outcome and the stream id of its last event. A `retaken` try
   * continues from the events an earlier worker sent of it, if any.
   */
  async runItem(data: ItemJobData, signal: AbortSignal, retaken: boolean): Promise<ItemJobResult> {
    const run = await this.runOf(data);
    run.control.open();
    try {
      return await this.runTry(run, data, signal, retaken);
    } finally {
      await run.control.close();
    }
  }

  /**
   * The worker stops: the items waiting for a run process now, and any that asks one from now
   * on, are handed back to the queue rather than waited for.
   */
  handBackWaiting(): void {
    this.stopping = true;
    for (const run of this.runs.values()) {
      void run.then(({ control }) => control.handBackWaiting()).catch(() => undefined);
    }
  }

  /** Stops every run's MCP servers. */
  async close(): Promise<void> {
    this.controller.abort('the worker stopped');
    for (const run of this.runs.values()) {
      const settled = await run.catch(() => undefined);
      await settled?.runtime.services.mcp.close();
      await settled?.control.stop();
    }
  }

  private async runTry(
    run: WorkerRun,
    data: ItemJobData,
    signal: AbortSignal,
    retaken: boolean,
  ): Promise<ItemJobResult> {
    const { runtime, publisher, tries } = run;
    for (const [task, knowledge] of Object.entries(data.knowledge)) {
      runtime.services.knowledge.restore(task, knowledge);
      // The run process ships the results of completed ancestors only (see `queuedItem`).
      run.statuses[task] = 'succeeded';
    }
    const { task, index, attempt } = data;
    runtime.services.budgets.catchUp(task, {
      task: spentFromWire(data.spent.task),
      mission: spentFromWire(data.spent.mission),
    });
    for (const breach of data.breaches) runtime.services.budgets.adopt(breach);
    const restore = retaken ? await this.journaledTry(data) : undefined;
    publisher.track(task, index, attempt);
    const itemRuntime = restore === undefined ? runtime : { ...runtime, restore };
    const prepared = assemblePreparedTask(itemRuntime, task, data.prepared);
    const running: RunningTry = { attempt, stop: new AbortController(), handedBack: false };
    tries.set(itemKey(task, index), running);
    const outcome = await runItemCommander(
      prepared,
      data.dataset,
      { index, value: data.item, mayContinue: restore !== undefined },
      { signal: AbortSignal.any([signal, running.stop.signal]) },
    )
      .catch((error: unknown) => {
        // A try handed back ends by being stopped: that is no failure of the item.
        if (running.handedBack) return undefined;
        throw error;
      })
      .finally(() => {
        tries.delete(itemKey(task, index));
        return publisher.settled();
      });
    const lastEventId = publisher.release(task, index, attempt);
    if (running.handedBack || outcome === undefined) throw new ItemHandedBack(task, index);
    return { outcome, lastEventId };
  }

  /** What an earlier worker journaled of this try, as a resumed run would read it. */
  private async journaledTry(data: ItemJobData): Promise<MissionJournal | undefined> {
    const events = await this.link.itemEvents(data.runId, data.task, data.index, data.attempt);
    if (events.length === 0) return undefined;
    const opening = {
      type: 'mission.started',
      actor: actorId.mission(data.mission),
      mission: data.mission,
      inputs: {},
      chainedFrom: null,
      seq: 0,
      time: '',
      runId: data.runId,
    } as MissionEvent;
    return restoreFromJournal(data.runId, [opening, ...events]).journals.get(data.mission);
  }

  private runOf(data: ItemJobData): Promise<WorkerRun> {
    let run = this.runs.get(data.runId);
    if (run === undefined) {
      run = this.openRun(data);
      // A run that could not be opened is tried again by its next job.
      run.catch(() => this.runs.delete(data.runId));
      this.runs.set(data.runId, run);
    }
    return run;
  }

  private async openRun(data: ItemJobData): Promise<WorkerRun> {
    const { cacheRoot, vars, env, tag } = this.settings;
    const root = await this.link.project(data.runId, join(cacheRoot, 'projects'));
    const config = await loadProject(root, { vars, env });
    requireVariables(config, data.mission);
    const mission = config.missions.get(data.mission);
    const redactor: { current: Redactor } = {
      current: createRunRedactor(
        config,
        mission === undefined ? [] : [{ mission, inputs: data.inputs }],
      ),
    };
    const bus = new EventBus({ runId: data.runId, redact: eventRedactor(redactor) });
    const publisher = this.link.publisher(data.runId, tag);
    bus.subscribe((event) => publisher.publish(event));
    // The run process counts every worker and sends its breaches; each job also brings its
    // count, from which this worker counts on, so the turn that crosses a limit fails here.
    const budgets =
      mission === undefined ? new BudgetTracker({ mission: data.mission }) : budgetTracker(mission);
    const tries = new Map<string, RunningTry>();
    const control = this.link.control(data.runId, tag, {
      breach: (breach) => budgets.adopt(breach),
      cancel: (task, index, attempt) => {
        const running = tries.get(itemKey(task, index));
        if (running?.attempt === attempt) running.stop.abort('the run cancelled this try');
      },
      handBack: (task, index) => {
        const running = tries.get(itemKey(task, index));
        if (running === undefined || running.handedBack) return;
        running.handedBack = true;
        // Its actors' ends stay here: the try is left as a dead worker would leave it.
        publisher.drop(task, index);
        running.stop.abort('the worker stopped: the item goes back to the queue');
      },
    });
    if (this.stopping) control.handBackWaiting();
    const services = await createRunServices({
      config,
      mission: data.mission,
      inputs: data.inputs,
      stateDir: join(cacheRoot, 'state'),
      runId: data.runId,
      bus,
      signal: this.controller.signal,
      clients: workerClients(publisher, this.link.pacing(), bus),
      budgets,
      human: control.human(),
      remoteQuestions: control.questions(),
      ...(data.gated ? { gate: control.gate(publisher) } : {}),
    }).catch(async (error: unknown) => {
      await control.stop();
      throw error;
    });
    redactor.current = services.redact;
    // A worker runs no mission: its task states are those the run process shipped with its jobs.
    const statuses: Record<string, TaskStatus> = {};
    const states = { statuses, activators: {}, settled: {} };
    const runtime = createMissionRuntime(services, createAgentSession, () => states);
    return { runtime, statuses, publisher, control, tries };
  }
}

/**
 * The real providers, each request sent only once every event before it is in Redis (a worker
 * killed while it waits for a reply leaves the conversation up to that request, so the worker
 * continuing the item asks that request again and no answered one) and once the model
 * configuration's shared pause is over: a 429 with a wait on any worker pauses all of them.
 */
function workerClients(
  publisher: EventPublisher,
  pacing: ModelPacing,
  bus: EventBus,
): ModelClientFactory {
  return (model, hooks) => {
    const client = defaultModelClients(model, {
      onRetry: (notice, request) => {
        if (notice.status === 429)
          void pacing.hold(model.config, notice.waitMs).catch(() => undefined);
        hooks.onRetry(notice, request);
      },
    });
    return {
      model: client.model,
      generate: async (request) => {
        await publisher.settled();
        await pacing.waitOut(model.config, request.signal, (wait) =>
          bus.emit({
            type: 'warning',
            actor: request.actor ?? 'run',
            code: 'queue.paced',
            message: `models.${model.config} is rate limited (a 429 on some worker): waiting ${wait} ms`,
          }),
        );
        return client.generate(request);
      },
    };
  };
}
