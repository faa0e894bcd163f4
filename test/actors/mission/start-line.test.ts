import { describe, expect, it } from 'vitest';
import { StartLine } from '../../../src/actors/mission/start-line.ts';

describe('StartLine', () => {
  it('lets each place start only once the place before it is done', async () => {
    const line = new StartLine();
    const started: string[] = [];
    const first = line.take();
    const second = line.take();
    const third = line.take();
    const waiting = [
      second.ready.then(() => started.push('second')),
      third.ready.then(() => started.push('third')),
    ];
    await first.ready;
    started.push('first');
    await Promise.resolve();
    expect(started).toEqual(['first']);
    first.done();
    await waiting[0];
    expect(started).toEqual(['first', 'second']);
    second.done();
    await waiting[1];
    expect(started).toEqual(['first', 'second', 'third']);
  });

  it('never holds one line behind the unfinished place of another', async () => {
    const held = new StartLine();
    held.take();
    const other = new StartLine();
    other.take().done();
    await expect(other.take().ready).resolves.toBeUndefined();
  });
});
