/**
 * The run process's side of the event relay: reads the run's Redis stream in order and hands
 * each event to `deliver` (which puts it on the run's bus, where it gets its seq). The cursor
 * is kept in Redis, so a resumed run process goes on after the last event its journal wrote.
 * Each stream entry is a batch of events (see the publisher); each event is delivered with its
 * place in the stream (`relay`). The cursor is saved only once the journal holds what was
 * delivered, so a run process killed in between reads that batch again when resumed: it skips
 * what its journal already holds, up to the last relay position the journal names.
 * `reached` lets an item's outcome wait until every event of the item is on the bus.
 */
import type { Redis } from 'ioredis';
import type { EventInput } from '../../base/events.ts';
import { sleep } from '../../base/sleep.ts';
import { BATCH_FIELD, compareRelays, compareStreamIds, runKeys } from './queue-keys.ts';

type StreamEntry = [id: string, fields: string[]];
type StreamReply = Array<[string, StreamEntry[]]> | null;

/**
 * The pause after a batch before the next read: events arrive a few milliseconds later, in
 * fewer, larger batches (a fraction of the round trips and of the CPU on both sides).
 */
const PAUSE_MS = 5;

/** The events of one stream entry: a batch (a JSON array) in its one field. */
function eventsOf(fields: string[]): EventInput[] {
  const index = fields.indexOf(BATCH_FIELD);
  return index === -1 ? [] : (JSON.parse(fields[index + 1] ?? '[]') as EventInput[]);
}

/** Reads one run's event stream until stopped. */
export class EventCollector {
  private readonly keys: ReturnType<typeof runKeys>;
  private last = '0-0';
  /** The cursor as last saved in Redis. */
  private saved = '0-0';
  private stopping = false;
  private waiters: Array<{ id: string; resolve: () => void }> = [];
  private loop: Promise<void> = Promise.resolve();

  constructor(
    /** A connection of its own: XREAD BLOCK holds it. */
    private readonly redis: Redis,
    /** Another connection, which saves the cursor when reading stops. */
    private readonly writer: Redis,
    runId: string,
    private readonly deliver: (event: EventInput) => void,
    /** Resolves once what was delivered is in the run's journal (the cursor waits for it). */
    private readonly journaled: () => Promise<void> = () => Promise.resolve(),
    /** A resumed run: the relay position of the last relayed event its journal holds. */
    private skipThrough?: string,
  ) {
    this.keys = runKeys(runId);
  }

  /** Starts reading after the cursor a run process of this run left (the start on a new run). */
  async start(): Promise<void> {
    this.last = (await this.redis.get(this.keys.cursor)) ?? '0-0';
    this.saved = this.last;
    this.loop = this.read();
  }

  /** Resolves once the event with stream id `id` has been delivered and the cursor saved past it. */
  reached(id: string | null): Promise<void> {
    if (id === null || compareStreamIds(id, this.saved) <= 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ id, resolve }));
  }

  /** Stops reading (after the batch in hand) and saves the cursor. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.redis.disconnect();
    await this.loop;
    if (this.saved !== this.last && (await this.isJournaled())) {
      await this.writer.set(this.keys.cursor, this.last).catch(() => undefined);
    }
  }

  /**
   * One round trip per batch: the cursor past the batch before (when it moved) is saved in the
   * same pipeline as the next XREAD, which then does not block, and the items waiting on that
   * batch are woken only once it is saved (an outcome is never accepted before a resumed run
   * would skip its events). After a batch it waits `PAUSE_MS` so the next read finds more.
   */
  private async read(): Promise<void> {
    while (!this.stopping) {
      const cursor = this.last;
      // The cursor moves past a batch once the journal holds its events, never before.
      const cursorMoved = this.saved !== cursor && (await this.isJournaled());
      const pipeline = this.redis.pipeline();
      if (cursorMoved) pipeline.set(this.keys.cursor, cursor);
      if (cursorMoved) pipeline.xread('COUNT', 1000, 'STREAMS', this.keys.events, cursor);
      else pipeline.xread('COUNT', 1000, 'BLOCK', 1000, 'STREAMS', this.keys.events, cursor);
      let entries: StreamEntry[];
      try {
        const replies = (await pipeline.exec()) ?? [];
        const failed = replies.find(([error]) => error !== null);
        if (failed !== undefined) throw failed[0];
        entries = (replies.at(-1)?.[1] as StreamReply)?.[0]?.[1] ?? [];
      } catch {
        if (this.stopping) break;
        // Redis went away: ioredis reconnects; read again once it is back.
        await sleep(200);
        continue;
      }
      if (cursorMoved) {
        this.saved = cursor;
        this.wake();
      }
      if (entries.length === 0) continue;
      for (const [id, fields] of entries) {
        this.deliverEntry(id, eventsOf(fields));
        this.last = id;
      }
      await sleep(PAUSE_MS);
    }
    for (const waiter of this.waiters) waiter.resolve();
    this.waiters = [];
  }

  /** Delivers the events of stream entry `id`, each with its relay position. */
  private deliverEntry(id: string, events: EventInput[]): void {
    for (const [index, event] of events.entries()) {
      event.relay = `${id}/${index}`;
      if (this.skipThrough !== undefined) {
        if (compareRelays(event.relay, this.skipThrough) <= 0) continue;
        this.skipThrough = undefined;
      }
      this.deliver(event);
    }
  }

  /** Whether the journal wrote what was delivered (a failed journal stops the run anyway). */
  private isJournaled(): Promise<boolean> {
    return this.journaled().then(
      () => true,
      () => false,
    );
  }

  private wake(): void {
    const due = this.waiters.filter((waiter) => compareStreamIds(waiter.id, this.saved) <= 0);
    this.waiters = this.waiters.filter((waiter) => compareStreamIds(waiter.id, this.saved) > 0);
    for (const waiter of due) waiter.resolve();
  }
}
