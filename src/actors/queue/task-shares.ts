/**
 * What every try of a task's items has in common — the mission, the dataset, the task as the
 * run process prepared it, its ancestors' knowledge and the public inputs — travels once per
 * run in Redis, content-addressed, instead of in every job: a job carries its item and the
 * key of its share, and a worker reads each share once. A job stays small however much the
 * ancestors left for `query_task_output`.
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { ItemJobData } from './item-jobs.ts';
import { runKeys } from './queue-keys.ts';

/** The part of a job every try of the task shares. */
export type TaskShare = Pick<
  ItemJobData,
  'mission' | 'dataset' | 'prepared' | 'knowledge' | 'inputs'
>;

/** A job as it travels: its own fields and the key of its task's share. */
export type ItemJobWire = Omit<ItemJobData, keyof TaskShare> & { share: string };

/** The run process's side: stores each task's share once. */
export class TaskShareWriter {
  /** By the prepared task (one object per run of a task): the key of its stored share. */
  private readonly keys = new WeakMap<object, Promise<string>>();

  constructor(
    private readonly redis: Redis,
    private readonly runId: string,
  ) {}

  /** The job as it travels; its task's share is stored the first time. */
  async wire(data: ItemJobData): Promise<ItemJobWire> {
    const { mission, dataset, prepared, knowledge, inputs, ...own } = data;
    let key = this.keys.get(prepared.commanderTask);
    if (key === undefined) {
      key = this.store({ mission, dataset, prepared, knowledge, inputs });
      this.keys.set(prepared.commanderTask, key);
      // A failed store is tried again by the next job.
      key.catch(() => this.keys.delete(prepared.commanderTask));
    }
    return { ...own, share: await key };
  }

  private async store(share: TaskShare): Promise<string> {
    const text = JSON.stringify(share);
    const key = runKeys(this.runId).share(createHash('sha256').update(text).digest('hex'));
    await this.redis.set(key, text);
    return key;
  }
}

/** A worker's side: reads each share once. */
export class TaskShareReader {
  private readonly shares = new Map<string, Promise<TaskShare>>();

  constructor(private readonly redis: Redis) {}

  /** The whole job. */
  async expand(wire: ItemJobWire): Promise<ItemJobData> {
    const { share: key, ...own } = wire;
    let share = this.shares.get(key);
    if (share === undefined) {
      share = this.read(wire.runId, key);
      this.shares.set(key, share);
      share.catch(() => this.shares.delete(key));
    }
    return { ...own, ...(await share) };
  }

  private async read(runId: string, key: string): Promise<TaskShare> {
    const text = await this.redis.get(key);
    if (text === null) {
      throw new Error(
        `run ${runId}: its task's shared part is not in this Redis (was it cleaned up?)`,
      );
    }
    return JSON.parse(text) as TaskShare;
  }
}
