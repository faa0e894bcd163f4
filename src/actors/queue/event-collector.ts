/**
 * The run process's side of the event relay: reads the run's Redis stream in order and hands
 * each event to `deliver` (which puts it on the run's bus, where it gets its seq). The cursor
 * is kept in Redis, so a resumed run process goes on after the last event it delivered.
 * `reached` lets an item's outcome wait until every event of the item is on the bus.
 */
import type { Redis } from 'ioredis';
import type { EventInput } from '../../base/events.ts';
import { compareStreamIds, runKeys } from './queue-keys.ts';

type StreamReply = Array<[string, Array<[string, string[]]>]> | null;

/** Reads one run's event stream until stopped. */
export class EventCollector {
  private readonly keys: ReturnType<typeof runKeys>;
  private last = '0-0';
  private stopping = false;
  private waiters: Array<{ id: string; resolve: () => void }> = [];
  private loop: Promise<void> = Promise.resolve();

  constructor(
    /** A connection of its own: XREAD BLOCK holds it. */
    private readonly redis: Redis,
    runId: string,
    private readonly deliver: (event: EventInput) => void,
  ) {
    this.keys = runKeys(runId);
  }

  /** Starts reading after the cursor a run process of this run left (the start on a new run). */
  async start(): Promise<void> {
    this.last = (await this.redis.get(this.keys.cursor)) ?? '0-0';
    this.loop = this.read();
  }

  /** Resolves once the event with stream id `id` has been delivered. */
  reached(id: string | null): Promise<void> {
    if (id === null || compareStreamIds(id, this.last) <= 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ id, resolve }));
  }

  /** Stops reading (after the batch in hand). */
  async stop(): Promise<void> {
    this.stopping = true;
    this.redis.disconnect();
    await this.loop;
  }

  private async read(): Promise<void> {
    while (!this.stopping) {
      let reply: StreamReply;
      try {
        reply = (await this.redis.xread(
          'COUNT',
          1000,
          'BLOCK',
          1000,
          'STREAMS',
          this.keys.events,
          this.last,
        )) as StreamReply;
      } catch {
        if (this.stopping) break;
        // Redis went away: ioredis reconnects; read again once it is back.
        await new Promise((resolve) => setTimeout(resolve, 200));
        continue;
      }
      const entries = reply?.[0]?.[1] ?? [];
      if (entries.length === 0) continue;
      for (const [id, fields] of entries) {
        this.deliver(JSON.parse(fields[1] ?? '{}') as EventInput);
        this.last = id;
      }
      await this.redis.set(this.keys.cursor, this.last).catch(() => undefined);
      this.wake();
    }
    for (const waiter of this.waiters) waiter.resolve();
    this.waiters = [];
  }

  private wake(): void {
    const due = this.waiters.filter((waiter) => compareStreamIds(waiter.id, this.last) <= 0);
    this.waiters = this.waiters.filter((waiter) => compareStreamIds(waiter.id, this.last) > 0);
    for (const waiter of due) waiter.resolve();
  }
}
