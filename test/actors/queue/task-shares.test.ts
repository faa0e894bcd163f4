/**
 * A task's shared part travels once per run, on a real redis-server: jobs of one task carry
 * their own fields and the key of one stored share, and a worker gets each whole job back.
 */
import { describe, expect, it } from 'vitest';
import { TaskShareReader, TaskShareWriter } from '../../../src/actors/queue/task-shares.ts';
import { itemJob } from './item-job.ts';
import { redisForFile } from './redis-for-file.ts';

const connection = redisForFile();

const job = (index: number) => itemJob(index, 'run-shares');

describe('task shares', () => {
  it('stores a task share once and gives a worker each whole job back', async () => {
    const writer = new TaskShareWriter(connection(), 'run-shares');
    const first = await writer.wire(job(0));
    const second = await writer.wire(job(1));
    expect(Object.keys(first).sort()).toEqual([
      'attempt',
      'breaches',
      'gated',
      'index',
      'item',
      'runId',
      'share',
      'spent',
      'task',
    ]);
    expect(second.share).toBe(first.share);
    expect(await connection().keys('sortie:run:run-shares:share:*')).toEqual([first.share]);

    const reader = new TaskShareReader(connection());
    expect(await reader.expand(first)).toEqual(job(0));
    expect(await reader.expand(second)).toEqual(job(1));
  });

  it('says the share is missing when the run was cleaned up', async () => {
    const reader = new TaskShareReader(connection());
    const wire = { ...(await new TaskShareWriter(connection(), 'run-gone').wire(job(2))) };
    await connection().del(wire.share);
    await expect(reader.expand(wire)).rejects.toThrow(
      "run run-shares: its task's shared part is not in this Redis (was it cleaned up?)",
    );
  });
});
