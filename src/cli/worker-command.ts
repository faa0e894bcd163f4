/**
 * `sortie worker`: connects to the queue, takes items `--concurrency` at a time and runs each as
 * a run's process would, with this machine's keys. SIGTERM or Ctrl-C stops it gracefully: no
 * more items are taken, those in hand are finished, except those waiting for a run process (at
 * its step gate, for its person), which are handed back to the queue. A status line on a terminal; one line per
 * settled item otherwise.
 */
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { UsageError } from '../base/errors.ts';
import type { JobTraces } from '../observe/index.ts';
import { traceSettingsOf } from '../observe/settings.ts';
import type { CliIo } from './io.ts';
import { parseVarFlags } from './var-flags.ts';
import type { WorkerFlags } from './worker.ts';
import { WorkerStatus } from './worker-status.ts';

/** Where the stop signals come from (tests may replace it). */
export interface StopSource {
  once(signal: 'SIGTERM' | 'SIGINT', listener: () => void): unknown;
}

function positiveNumber(flag: string, text: string): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) {
    throw new UsageError(`${flag} ${text}: expected a positive number`);
  }
  return value;
}

/**
 * The worker's span export, when the OpenTelemetry variables or `--otel` ask for one: the
 * exporter is imported only then, so a worker without them loads no OpenTelemetry code.
 */
async function openJobTraces(
  otelFlag: string | undefined,
  io: CliIo,
  tag: string,
): Promise<JobTraces | undefined> {
  const warn = (message: string): void => io.stderr(`warning: ${message}\n`);
  const settings = traceSettingsOf(io.env, otelFlag, warn);
  if (settings === undefined) return undefined;
  const observe = await import('../observe/index.ts');
  return observe.openJobTraces(settings, warn, tag);
}

/** Runs the worker until stopped; returns the exit code. */
export async function workerCommand(
  flags: WorkerFlags,
  io: CliIo,
  signals: StopSource = process,
): Promise<number> {
  const url = flags.queue ?? io.env.SORTIE_QUEUE;
  if (url === undefined || url === '') {
    throw new UsageError('sortie worker needs --queue redis://HOST:PORT/DB (or SORTIE_QUEUE)');
  }
  const concurrency = Math.floor(positiveNumber('--concurrency', flags.concurrency));
  const lockMs = Math.round(positiveNumber('--lock-timeout', flags.lockTimeout) * 1000);
  const vars = parseVarFlags(flags.var ?? []);
  const queue = await import('../actors/queue/index.ts');
  await queue.checkRedisReachable(url);
  const { WorkerRuns } = await import('../run/worker-runs.ts');
  const tag = `w${randomBytes(3).toString('hex')}`;
  const link = new queue.WorkerLink(url, tag);
  const runs = new WorkerRuns(link, {
    vars,
    env: io.env,
    cacheRoot: resolve(flags.cacheDir ?? join(tmpdir(), 'sortie-worker')),
    tag,
  });
  const status = new WorkerStatus(io, queue.shownQueueUrl(url), concurrency);
  const traces = await openJobTraces(flags.otel, io, tag);
  const worker = queue.startQueueWorker({
    url,
    concurrency,
    lockMs,
    tag,
    runItem: (data, signal, retaken) => runs.runItem(data, signal, retaken),
    onStarted: (data) => {
      status.started(data);
      traces?.started(data);
    },
    onSettled: (data, result) => {
      status.settled(data, result);
      traces?.settled(data, result);
    },
    onHandedBack: (data) => {
      status.handedBack(data);
      traces?.handedBack(data);
    },
  });
  await worker.ready;
  status.ready();
  await new Promise<void>((stop) => {
    signals.once('SIGTERM', stop);
    signals.once('SIGINT', stop);
  });
  status.stopping();
  // No more jobs are taken; those waiting for a run process go back to the queue, the others finish.
  const closed = worker.close();
  runs.handBackWaiting();
  await closed;
  await runs.close();
  await traces?.close();
  link.close();
  status.stopped();
  return 0;
}
