/**
 * Connections to the queue's Redis from a `redis://HOST:PORT/DB` URL: checked once with a
 * clear message (no retries, no stack trace) before a run or worker starts, then opened
 * with the settings BullMQ needs (no per-command retry limit: a restarted Redis is waited for).
 */
import { Redis } from 'ioredis';
import { UsageError } from '../../base/errors.ts';
import { reasonOf } from '../../base/reason.ts';

/** The URL checked: redis:// or rediss://, with a host. */
export function checkQueueUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`--queue ${url} is not a URL; expected redis://HOST:PORT/DB`);
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    throw new UsageError(`--queue ${url} is not a Redis URL; expected redis://HOST:PORT/DB`);
  }
  if (parsed.hostname === '') {
    throw new UsageError(`--queue ${url} names no host; expected redis://HOST:PORT/DB`);
  }
  return parsed;
}

/** The URL without its password, for messages. */
export function shownQueueUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.password !== '') parsed.password = '••••';
  return parsed.toString();
}

/**
 * A connection for BullMQ and the relay; `name` (CLIENT SETNAME) says whose it is in Redis's
 * `CLIENT LIST`, where a person (or a test) counts a process's connections.
 */
export function openRedis(url: string, name?: string): Redis {
  return new Redis(url, {
    maxRetriesPerRequest: null,
    enableReadyCheck: true,
    ...(name !== undefined ? { connectionName: name } : {}),
  });
}

/** Resolves when Redis at `url` answers PING; throws a UsageError saying why it cannot. */
export async function checkRedisReachable(url: string): Promise<void> {
  checkQueueUrl(url);
  const probe = new Redis(url, {
    lazyConnect: true,
    retryStrategy: () => null,
    maxRetriesPerRequest: 0,
    connectTimeout: 5000,
  });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    await probe.ping();
  } catch (error) {
    const why = reasonOf(error);
    throw new UsageError(`cannot reach the queue at ${shownQueueUrl(url)}: ${why}`);
  } finally {
    probe.disconnect();
  }
}
