/**
 * The event relay between a worker and the run process, on a real redis-server: a worker's
 * events of one turn of the event loop travel as one stream entry (one XADD, not one per
 * event), each item try's list holds that try's events, and the run's collector delivers them
 * in order, saving its cursor before an item waiting on them goes on, so a collector started
 * again for the run reads only what came after — and, when its cursor lags its journal (the
 * process was killed between the two), skips what the journal holds.
 */
import { describe, expect, it } from 'vitest';
import type { EventInput, MissionEvent } from '../../../src/base/events.ts';
import { EventCollector } from '../../../src/actors/queue/event-collector.ts';
import { EventPublisher } from '../../../src/actors/queue/event-publisher.ts';
import { runKeys } from '../../../src/actors/queue/queue-keys.ts';
import { restoreFromJournal } from '../../../src/journal/restore.ts';
import { redisConnectionsForFile } from './redis-for-file.ts';

const RUN = 'run-relay';
const keys = runKeys(RUN);
const connect = redisConnectionsForFile();

function warning(actor: string, message: string, seq: number): MissionEvent {
  const time = '2026-11-25T00:00:00.000Z';
  return { type: 'warning', actor, code: 'test', message, seq, time, runId: RUN } as MissionEvent;
}

/** A collector of `run` delivering into `delivered`, skipping through `skipThrough`. */
async function collector(
  delivered: EventInput[],
  run = RUN,
  skipThrough?: string,
): Promise<EventCollector> {
  const push = (event: EventInput): number => delivered.push(event);
  const reader = new EventCollector(connect(), connect(), run, push, undefined, skipThrough);
  await reader.start();
  return reader;
}

describe('the event relay', () => {
  it('sends the events of one turn as one stream entry and delivers them in order', async () => {
    const writer = connect();
    const publisher = new EventPublisher(writer, RUN, 'w1');
    publisher.track('work', 0, 1);
    publisher.publish(warning('commander:work[0]', 'first', 7));
    publisher.publish(warning('mission:bench', 'second', 8));
    publisher.publish(warning('commander:work[0]', 'third', 9));
    await publisher.settled();
    const lastId = publisher.release('work', 0, 1);

    expect(await writer.xlen(keys.events)).toBe(1);
    const listed = await writer.lrange(keys.item('work', 0, 1), 0, -1);
    expect(listed.map((text) => (JSON.parse(text) as { message: string }).message)).toEqual([
      'first',
      'third',
    ]);

    const delivered: EventInput[] = [];
    const reader = await collector(delivered);
    await reader.reached(lastId);
    expect(await writer.get(keys.cursor)).toBe(lastId);
    expect(delivered).toEqual([
      {
        type: 'warning',
        actor: 'commander:work[0]',
        code: 'test',
        message: 'first',
        time: '2026-11-25T00:00:00.000Z',
        relay: `${lastId}/0`,
      },
      {
        type: 'warning',
        actor: 'mission:bench',
        code: 'test',
        message: 'second',
        time: '2026-11-25T00:00:00.000Z',
        relay: `${lastId}/1`,
      },
      {
        type: 'warning',
        actor: 'commander:work[0]',
        code: 'test',
        message: 'third',
        time: '2026-11-25T00:00:00.000Z',
        relay: `${lastId}/2`,
      },
    ]);
    await reader.stop();

    // A collector started again (a resumed run process) goes on after what was delivered.
    publisher.track('work', 1, 1);
    publisher.publish(warning('commander:work[1]', 'fourth', 10));
    await publisher.settled();
    const again: EventInput[] = [];
    const resumed = await collector(again);
    await resumed.reached(publisher.release('work', 1, 1));
    expect(again.map((event) => event.type === 'warning' && event.message)).toEqual(['fourth']);
    await resumed.stop();
  });

  it('skips, when resumed with a cursor that lags its journal, the events the journal holds', async () => {
    const run = 'run-relay-resumed';
    const writer = connect();
    const publisher = new EventPublisher(writer, run, 'w1');
    publisher.publish(warning('commander:work[0]', 'a1', 1));
    publisher.publish(warning('commander:work[0]', 'a2', 2));
    await publisher.settled();
    const first = publisher.lastEventId;
    publisher.publish(warning('commander:work[0]', 'b1', 3));
    publisher.publish(warning('commander:work[0]', 'b2', 4));
    publisher.publish(warning('commander:work[0]', 'b3', 5));
    await publisher.settled();
    const second = publisher.lastEventId;
    expect(await writer.xlen(runKeys(run).events)).toBe(2);

    const delivered: EventInput[] = [];
    const reader = await collector(delivered, run);
    await reader.reached(second);
    await reader.stop();
    expect(delivered.map((event) => event.relay)).toEqual([
      `${first}/0`,
      `${first}/1`,
      `${second}/0`,
      `${second}/1`,
      `${second}/2`,
    ]);

    // Killed after its journal wrote a1, a2 and b1, before its cursor moved past either entry.
    await writer.set(runKeys(run).cursor, '0-0');
    const journal = delivered.slice(0, 3).map((event, index) => ({
      ...event,
      seq: index + 1,
      time: '2026-11-25T00:00:00.000Z',
      runId: run,
    })) as MissionEvent[];
    const restored = restoreFromJournal(run, journal);
    expect(restored.relayed).toBe(`${second}/0`);

    const again: EventInput[] = [];
    const resumed = await collector(again, run, restored.relayed);
    await resumed.reached(second);
    expect(again.map((event) => event.type === 'warning' && event.message)).toEqual(['b2', 'b3']);
    await resumed.stop();
  });
});
