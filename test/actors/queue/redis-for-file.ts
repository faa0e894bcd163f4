/**
 * A real redis-server and one connection to it for the tests of one file: started before
 * them, stopped after them (its folder goes with the file's temporary folders).
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { openRedis } from '../../../src/actors/queue/queue-connection.ts';
import { startRedis, type RedisServer } from '../../e2e/queue-harness.ts';

/** Registers the server's start and stop; returns the connection's getter for the tests. */
export function redisForFile(): () => Redis {
  let redis: RedisServer | undefined;
  let connection: Redis | undefined;
  beforeAll(async () => {
    redis = await startRedis();
    connection = openRedis(redis.url);
  });
  afterAll(async () => {
    connection?.disconnect();
    if (redis === undefined) return;
    await redis.stop();
  });
  return () => {
    if (connection === undefined) throw new Error('redis-server has not started');
    return connection;
  };
}
