/**
 * `sortie run --queue URL` (and `resume --queue`): checks what a distributed run cannot carry,
 * then opens the run's item queue — loaded lazily, so a run without `--queue` never loads
 * BullMQ or a Redis client.
 */
import type { MissionConfig } from '../config/config-types.ts';
import { UsageError } from '../base/errors.ts';
import type { QueuedItem } from '../actors/contracts.ts';
import type { RunItemQueue } from '../actors/queue/index.ts';

/** What a distributed run ships and where. */
export interface RunQueueRequest {
  url: string;
  runId: string;
  root: string;
  stateDir: string;
  mission: MissionConfig;
  /** The inputs the run was given (before configured values are applied). */
  inputs: Record<string, unknown>;
  /** `--step` or `--break`: workers hold their gate points at this process's gate. */
  debugging: boolean;
  /** Resolves once the run's journal has written every event so far (see RunQueueOptions). */
  journaled?: () => Promise<void>;
  /** A resumed run: the last relayed event its journal holds (see RunQueueOptions). */
  relayed?: string;
  /** The trace context each job carries, when the run exports traces (see RunQueueOptions). */
  traceparent?: (item: QueuedItem) => string | undefined;
}

/** Checks the request, reaches Redis, ships the project and opens the run's item queue. */
export async function openRunQueue(request: RunQueueRequest): Promise<RunItemQueue> {
  // Refused: what a worker could not get without Redis holding a secret or a local path, a
  // protected input given on the command line (one with `value = vars.x` is resolved by each
  // worker from its own variables), file inputs.
  for (const field of request.mission.inputs?.fields ?? []) {
    if (!(field.name in request.inputs)) continue;
    if (field.protected) {
      throw new UsageError(
        `--queue: protected input "${field.name}" would have to travel through Redis; give it as \`value = vars.NAME\` in the input block so each worker resolves it from its own variables`,
      );
    }
    if (field.file) {
      throw new UsageError(
        `--queue: file input "${field.name}" is a path on this machine that workers cannot read; pass its content as a string input instead`,
      );
    }
  }
  const queue = await import('../actors/queue/index.ts');
  await queue.checkRedisReachable(request.url);
  return queue.RunItemQueue.open({
    url: request.url,
    runId: request.runId,
    root: request.root,
    stateDir: request.stateDir,
    gated: request.debugging,
    ...(request.journaled !== undefined ? { journaled: request.journaled } : {}),
    ...(request.relayed !== undefined ? { relayed: request.relayed } : {}),
    ...(request.traceparent !== undefined ? { traceparent: request.traceparent } : {}),
  });
}
