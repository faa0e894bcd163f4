/**
 * The event relay between a worker and the run process, on a real redis-server: a worker's
 * events of one turn of the event loop travel as one stream entry (one XADD, not one per
 * event), each item try's list holds that try's events, and the run's collector delivers them
 * in order, saving its cursor before an item waiting on them goes on, so a collector started
 * again for the run reads only what came after.
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventInput, MissionEvent } from '../../../src/base/events.ts';
import { EventCollector } from '../../../src/actors/queue/event-collector.ts';
import { EventPublisher } from '../../../src/actors/queue/event-publisher.ts';
import { openRedis } from '../../../src/actors/queue/queue-connection.ts';
import { runKeys } from '../../../src/actors/queue/queue-keys.ts';
import { startRedis, type RedisServer } from '../../e2e/queue-harness.ts';

const RUN = 'run-relay';
const keys = runKeys(RUN);
let redis: RedisServer;
const connections: Redis[] = [];

function connect(): Redis {
  const connection = openRedis(redis.url);
  connections.push(connection);
  return connection;
}

function warning(actor: string, message: string, seq: number): MissionEvent {
  const time = '2026-11-25T00:00:00.000Z';
  return { type: 'warning', actor, code: 'test', message, seq, time, runId: RUN } as MissionEvent;
}

/** A collector of the run delivering into `delivered`. */
async function collector(delivered: EventInput[]): Promise<EventCollector> {
  const reader = new EventCollector(connect(), connect(), RUN, (event) => delivered.push(event));
  await reader.start();
  return reader;
}

beforeAll(async () => {
  redis = await startRedis();
});

afterAll(async () => {
  for (const connection of connections) connection.disconnect();
  await redis.stop();
});

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
      },
      {
        type: 'warning',
        actor: 'mission:bench',
        code: 'test',
        message: 'second',
        time: '2026-11-25T00:00:00.000Z',
      },
      {
        type: 'warning',
        actor: 'commander:work[0]',
        code: 'test',
        message: 'third',
        time: '2026-11-25T00:00:00.000Z',
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
});
