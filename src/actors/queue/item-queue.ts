/**
 * The run process's item queue (`sortie run --queue`): each try of a parallel item becomes a
 * BullMQ job whose id names the run, task, item and try, so a resumed run asking again gets
 * the same job (finished: its result at once; running: its end) and no item runs twice. Events
 * the workers send come onto the run's bus through the collector; a try's outcome is given to
 * the iteration machine only once all its events are on the bus. The workers' gate points and
 * questions come to the run's gate and desk through the control path; the run's budgets count
 * every worker's spending and a breach stops every worker's requests of its scope.
 */
import { Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import { parseActorId, type EventInput } from '../../base/events.ts';
import { errorOf } from '../../base/reason.ts';
import type { ItemAttemptOutput } from '../../machines/iteration-context.ts';
import type { ItemQueue, QuestionTools, QueuedItem, RunServices } from '../contracts.ts';
import { EventCollector } from './event-collector.ts';
import { TaskShareWriter, type ItemJobWire } from './task-shares.ts';
import { spentToWire, type ItemJobData, type ItemJobResult } from './item-jobs.ts';
import { openRedis } from './queue-connection.ts';
import { jobIdOf, QUEUE_NAME, runKeys } from './queue-keys.ts';
import { uploadProject } from './project-transfer.ts';
import { RunControl } from './run-control.ts';
import { WorkerWatch } from './worker-watch.ts';

/** Where a distributed run's project lives and what its jobs carry besides the item. */
export interface RunQueueOptions {
  url: string;
  runId: string;
  root: string;
  stateDir: string;
  /** The run steps (`--step`, `--break`): workers hold every gate point at this run's gate. */
  gated: boolean;
  /**
   * Resolves once the run's journal has written every event so far: the relay's cursor moves
   * past a batch only then, so a process killed before its journal wrote a relayed event gets
   * that event again when resumed. Without it (no journal), the cursor moves once delivered.
   */
  journaled?: () => Promise<void>;
  /**
   * A resumed run: the relay position of the last relayed event its journal holds (the events'
   * `relay`); the relay skips the events up to it, which the cursor may not have passed yet.
   */
  relayed?: string;
  /** The trace context a job carries (the item's span), when the run exports traces. */
  traceparent?: (item: QueuedItem) => string | undefined;
}

/** The run side of the queue for one run; `close` when the run has ended. */
export class RunItemQueue implements ItemQueue {
  private services: RunServices | undefined;
  /**
   * The services, once the first item is queued: a resumed run reads its workers' requests
   * before it queues items again, and a request waiting for it is settled then.
   */
  private readonly servicesSet: Promise<RunServices>;
  private setServices: (services: RunServices) => void = () => undefined;
  /** How this process answers the question tools of each task's items. */
  private readonly questionTools = new Map<string, QuestionTools>();
  private readonly collector: EventCollector;
  private readonly control: RunControl;
  private readonly watch: WorkerWatch;
  private readonly shares: TaskShareWriter;
  private relayStarted: Promise<void> | undefined;

  private constructor(
    private readonly options: RunQueueOptions,
    private readonly redis: Redis,
    private readonly queue: Queue<ItemJobWire, ItemJobResult>,
    private readonly events: QueueEvents,
    private readonly eventsConnection: Redis,
  ) {
    const { runId, url } = options;
    this.servicesSet = new Promise((resolve) => (this.setServices = resolve));
    this.shares = new TaskShareWriter(redis, runId);
    this.collector = new EventCollector(
      openRedis(url),
      redis,
      runId,
      (event) => this.accept(event),
      options.journaled,
      options.relayed,
    );
    this.control = new RunControl(redis, openRedis(url), runId, {
      gate: async (point, after, signal) => {
        // Held after the worker's earlier events, as a local point is.
        await this.collector.reached(after);
        await (await this.servicesSet).gate.before(point, signal);
      },
      ask: async (actor, callId, question, signal) =>
        (await this.servicesSet).human.askerFor(actor).ask(question, { callId, signal }),
      question: ({ task, index, tool, args }, signal) => {
        const tools = this.questionTools.get(task);
        if (tools === undefined) throw new Error(`no item of task "${task}" was queued`);
        return tools({ index, tool, args }, signal);
      },
    });
    this.watch = new WorkerWatch(queue, events, this.control, runId);
  }

  private get runId(): string {
    return this.options.runId;
  }

  /** Ships the project and starts the queue's listeners. */
  static async open(options: RunQueueOptions): Promise<RunItemQueue> {
    const redis = openRedis(options.url);
    await uploadProject(redis, options.runId, options.root, options.stateDir);
    const queue = new Queue<ItemJobWire, ItemJobResult>(QUEUE_NAME, { connection: redis });
    const eventsConnection = openRedis(options.url);
    const events = new QueueEvents(QUEUE_NAME, { connection: eventsConnection });
    // One listener per item in flight: thousands is normal.
    events.setMaxListeners(0);
    await events.waitUntilReady();
    const itemQueue = new RunItemQueue(options, redis, queue, events, eventsConnection);
    itemQueue.control.start();
    itemQueue.watch.start();
    return itemQueue;
  }

  /**
   * Starts the event relay once the first item is queued: a resumed run then has its mission's
   * services, so no event the workers sent while it was down is read before it can go onto the
   * bus and into the journal (it was dropped, the cursor already past it).
   */
  private startRelay(): Promise<void> {
    this.relayStarted ??= this.collector.start();
    return this.relayStarted;
  }

  async run(
    item: QueuedItem,
    services: RunServices,
    signal: AbortSignal,
    questions: QuestionTools,
  ): Promise<ItemAttemptOutput> {
    this.services = services;
    this.setServices(services);
    this.questionTools.set(item.task, questions);
    await this.startRelay();
    const inputs = publicInputs(services);
    const breaches = services.budgets.breachesOf(item.task);
    const spent = {
      task: spentToWire(services.budgets.spent(item.task)),
      mission: spentToWire(services.budgets.spent()),
    };
    const gated = this.options.gated;
    const traceparent = this.options.traceparent?.(item);
    const data: ItemJobData = {
      ...item,
      runId: this.runId,
      inputs,
      gated,
      breaches,
      spent,
      ...(traceparent !== undefined ? { traceparent } : {}),
    };
    const jobId = jobIdOf(this.runId, item.task, item.index, item.attempt);
    const job = await this.queue.add(item.task, await this.shares.wire(data), {
      jobId,
      attempts: 1,
    });
    const finished = job.waitUntilFinished(this.events);
    const result = await new Promise<ItemJobResult>((resolve, reject) => {
      const onAbort = (): void => {
        // A try not yet taken by a worker is withdrawn; a running one is stopped on its worker.
        void job.remove().catch(() => undefined);
        const { task, index, attempt } = item;
        this.control.tell({ kind: 'cancel', task, index, attempt });
        reject(errorOf(signal.reason));
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      finished.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
    await this.collector.reached(result.lastEventId);
    return result.outcome;
  }

  /**
   * A worker's event onto the run's bus; its model turn's cost into the run's ledger and its
   * budgets, whose warnings and breaches are the run's (a breach also goes to every worker).
   */
  private accept(event: EventInput): void {
    const services = this.services;
    if (services === undefined) return;
    // A worker's own count is a part of this one, which announces each warning and breach once.
    if (event.type === 'budget.warning' || event.type === 'budget.exceeded') return;
    services.bus.emit(event);
    if (event.type !== 'model.response') return;
    const task = parseActorId(event.actor)?.name;
    const usage = event.usage;
    const pico = BigInt(event.costPico);
    services.costs.recordCosted(
      {
        actor: event.actor,
        ...(task !== undefined ? { task } : {}),
        model: `models.${event.model.config}.${event.model.key}`,
        usage,
      },
      { pico, unpriced: event.unpriced },
    );
    if (task === undefined) return;
    for (const signal of services.budgets.record(task, usage, pico)) {
      services.bus.emit({ ...signal, actor: event.actor });
      if (signal.type === 'budget.exceeded') {
        const { type: _type, ...breach } = signal;
        this.control.tell({ kind: 'breach', breach });
      }
    }
  }

  /**
   * Stops the relay and the queue's connections. A finished run (`forget`) also removes its
   * jobs and keys; a run that may be resumed keeps them.
   */
  async close(forget: boolean): Promise<void> {
    this.watch.stop();
    await this.control.stop();
    await this.collector.stop();
    if (forget) await this.forget();
    await this.events.close();
    await this.queue.close();
    // BullMQ leaves connections it was given open.
    this.eventsConnection.disconnect();
    this.redis.disconnect();
  }

  private async forget(): Promise<void> {
    const prefix = `${this.runId}/`;
    for (const state of ['completed', 'failed'] as const) {
      const jobs = await this.queue.getJobs([state]);
      for (const job of jobs) if (job.id?.startsWith(prefix) === true) await job.remove();
    }
    const keys = await this.redis.keys(runKeys(this.runId).pattern);
    if (keys.length > 0) await this.redis.del(...keys);
  }
}

/** The mission's inputs without protected ones: secrets never go into Redis. */
function publicInputs(services: RunServices): Record<string, unknown> {
  const hidden = new Set(
    (services.mission.inputs?.fields ?? [])
      .filter((field) => field.protected)
      .map((field) => field.name),
  );
  return Object.fromEntries(Object.entries(services.inputs).filter(([name]) => !hidden.has(name)));
}
