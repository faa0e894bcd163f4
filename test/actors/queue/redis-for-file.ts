/**
 * A real redis-server and connections to it for the tests of one file: started before them,
 * stopped after them (its folder goes with the file's temporary folders).
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { openRedis } from '../../../src/actors/queue/queue-connection.ts';
import { startRedis, type RedisServer } from '../../e2e/queue-harness.ts';

/** Registers the server's start and stop; returns `connect`, which opens one more connection. */
export function redisConnectionsForFile(): () => Redis {
  let redis: RedisServer | undefined;
  const connections: Redis[] = [];
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    for (const connection of connections) connection.disconnect();
    await redis?.stop();
  });
  return () => {
    if (redis === undefined) throw new Error('redis-server has not started');
    const connection = openRedis(redis.url);
    connections.push(connection);
    return connection;
  };
}

/** Registers the server's start and stop; returns the getter of the file's one connection. */
export function redisForFile(): () => Redis {
  const connect = redisConnectionsForFile();
  let connection: Redis | undefined;
  return () => (connection ??= connect());
}
