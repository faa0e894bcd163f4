/**
 * A worker's side of the event relay: every event of its run's bus goes to the run's Redis
 * stream (the run process puts it on its own bus, which numbers it), and an item's events also
 * to that try's list, from which another worker continues the item if this one dies. Events
 * are sent in batches, each one pipeline and one stream entry: what was published within
 * `FLUSH_MS`, or sooner when `settled` asks (before a model request, at an item's end), so
 * the events between two model turns of an item usually travel together.
 */
import type { Redis } from 'ioredis';
import { parseActorId, type MissionEvent } from '../../base/events.ts';
import { BATCH_FIELD, runKeys } from './queue-keys.ts';

/**
 * How long an event may wait for others to travel with (a batch costs a round trip and a
 * stream entry, on the worker, in Redis and in the run process, whatever its size).
 */
const FLUSH_MS = 10;

/** Relays the events of one run from this worker. */
export class EventPublisher {
  private readonly keys: ReturnType<typeof runKeys>;
  private pending: MissionEvent[] = [];
  private sending: Promise<void> = Promise.resolve();
  /** The timer that sends the queued events, while some are queued. */
  private timer: NodeJS.Timeout | undefined = undefined;
  /** The try each item of this worker is on, by `task[index]`. */
  private readonly attempts = new Map<string, number>();
  /** The stream id of each item try's last event. */
  private readonly lastIds = new Map<string, string>();
  private failure: unknown = undefined;
  /** The stream id of the last event this worker sent of the run (null before the first). */
  private lastSent: string | null = null;
  /** Items handed back to the queue (`task[index]`): their later events are not sent. */
  private readonly dropped = new Set<string>();

  constructor(
    private readonly redis: Redis,
    runId: string,
    /** Prefixes request ids, which each process numbers from 1. */
    private readonly tag: string,
  ) {
    this.keys = runKeys(runId);
  }

  /** The item's events from now on belong to try `attempt`. */
  track(task: string, index: number, attempt: number): void {
    this.attempts.set(`${task}[${index}]`, attempt);
  }

  /**
   * The item is handed back: its events from now on (its actors stopping here) are not sent,
   * so the run and the next worker see the try as a dead worker would have left it.
   */
  drop(task: string, index: number): void {
    this.dropped.add(`${task}[${index}]`);
  }

  /** Ends tracking of an item and returns the stream id of its last event (null if none). */
  release(task: string, index: number, attempt: number): string | null {
    this.attempts.delete(`${task}[${index}]`);
    this.dropped.delete(`${task}[${index}]`);
    const key = this.keys.item(task, index, attempt);
    const last = this.lastIds.get(key) ?? null;
    this.lastIds.delete(key);
    return last;
  }

  /**
   * The stream id of the last event sent so far: a gate point asked of the run process after
   * `settled` is held there only once every earlier event of this worker is on the run's bus.
   */
  get lastEventId(): string | null {
    return this.lastSent;
  }

  /** Queues an event (the bus's subscriber); it is sent within `FLUSH_MS`, or by `settled`. */
  publish(event: MissionEvent): void {
    if (this.dropped.size > 0 && this.isDropped(event)) return;
    this.pending.push(event);
    this.timer ??= setTimeout(() => this.flush(), FLUSH_MS);
  }

  /**
   * Sends what is queued at once and resolves once every event published so far is in Redis;
   * throws if a send failed. A worker calls it before each model request and at an item's end.
   */
  async settled(): Promise<void> {
    while (this.timer !== undefined || this.pending.length > 0) {
      if (this.timer !== undefined) this.flush();
      await this.sending;
    }
    await this.sending;
    if (this.failure !== undefined) throw this.failure;
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.sending = this.sending.then(() => this.send());
  }

  private isDropped(event: MissionEvent): boolean {
    const parsed = parseActorId(event.actor);
    return parsed?.index != null && this.dropped.has(`${parsed.name}[${parsed.index}]`);
  }

  private itemKey(event: MissionEvent): string | undefined {
    const parsed = parseActorId(event.actor);
    if (parsed === undefined || parsed.index === null) return undefined;
    const attempt = this.attempts.get(`${parsed.name}[${parsed.index}]`);
    return attempt === undefined ? undefined : this.keys.item(parsed.name, parsed.index, attempt);
  }

  /**
   * One pipeline per batch: the batch as one stream entry (a JSON array: one XADD however many
   * events a turn of the event loop produced) and one RPUSH per item try it touches.
   */
  private async send(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    const texts: string[] = [];
    const byItem = new Map<string, string[]>();
    for (const event of batch) {
      const text = JSON.stringify(this.relayed(event));
      texts.push(text);
      const itemKey = this.itemKey(event);
      if (itemKey === undefined) continue;
      const list = byItem.get(itemKey);
      if (list === undefined) byItem.set(itemKey, [text]);
      else list.push(text);
    }
    const pipeline = this.redis.pipeline();
    pipeline.xadd(this.keys.events, '*', BATCH_FIELD, `[${texts.join(',')}]`);
    for (const [itemKey, list] of byItem) pipeline.rpush(itemKey, ...list);
    try {
      const replies = (await pipeline.exec()) ?? [];
      const failed = replies.find(([error]) => error !== null);
      if (failed !== undefined) throw failed[0];
      const id = String(replies[0]?.[1]);
      this.lastSent = id;
      for (const itemKey of byItem.keys()) this.lastIds.set(itemKey, id);
    } catch (error) {
      this.failure ??= error;
    }
  }

  /** The event as the run process receives it: no seq or run id (its bus stamps them). */
  private relayed(event: MissionEvent): Record<string, unknown> {
    const { seq: _seq, runId: _runId, ...rest } = event as MissionEvent & Record<string, unknown>;
    if (typeof rest.requestId === 'string') rest.requestId = `${this.tag}-${rest.requestId}`;
    return rest;
  }
}
