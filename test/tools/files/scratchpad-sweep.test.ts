import { mkdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  SWEEP_MARKER,
  sweepScratchpads,
  sweepScratchpadsDaily,
} from '../../../src/tools/files/scratchpad-sweep.ts';
import { temporaryDirectory } from '../../helpers/temp-dir.ts';

const DAY = 24 * 60 * 60 * 1000;
const now = new Date('2026-11-22T12:00:00Z');
let stateDir: string;

async function makeRun(id: string, endedDaysAgo: number, withJournal = true): Promise<void> {
  const runDir = join(stateDir, 'runs', id);
  await mkdir(join(runDir, 'scratchpad', 'sub'), { recursive: true });
  await writeFile(join(runDir, 'scratchpad', 'sub', 'note.md'), 'x');
  const ended = new Date(now.getTime() - endedDaysAgo * DAY);
  if (withJournal) {
    await writeFile(join(runDir, 'journal.jsonl'), '{}\n');
    await utimes(join(runDir, 'journal.jsonl'), ended, ended);
  }
  await utimes(runDir, ended, ended);
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

beforeEach(async () => {
  stateDir = await temporaryDirectory('sweep');
});

describe('sweepScratchpads', () => {
  it('removes scratchpads of runs whose journal was last written over 7 days ago', async () => {
    await makeRun('old', 8);
    await makeRun('recent', 6);
    await makeRun('no-journal-old', 9, false);
    expect(await sweepScratchpads(stateDir, now)).toEqual(['no-journal-old', 'old']);
    expect(await exists(join(stateDir, 'runs', 'old', 'scratchpad'))).toBe(false);
    expect(await exists(join(stateDir, 'runs', 'old', 'journal.jsonl'))).toBe(true);
    expect(await exists(join(stateDir, 'runs', 'recent', 'scratchpad', 'sub', 'note.md'))).toBe(
      true,
    );
  });

  it('never sweeps the run that is starting', async () => {
    await makeRun('current', 30);
    expect(await sweepScratchpads(stateDir, now, 'current')).toEqual([]);
    expect(await exists(join(stateDir, 'runs', 'current', 'scratchpad'))).toBe(true);
  });

  it('does nothing without a runs folder', async () => {
    expect(await sweepScratchpads(join(stateDir, 'missing'), now)).toEqual([]);
  });
});

describe('sweepScratchpadsDaily', () => {
  it('sweeps a state directory never swept, and marks when', async () => {
    await makeRun('old', 8);
    expect(await sweepScratchpadsDaily(stateDir, now)).toEqual(['old']);
    expect((await stat(join(stateDir, SWEEP_MARKER))).mtimeMs).toBe(now.getTime());
  });

  it('does not scan again within a day of the last sweep', async () => {
    await sweepScratchpadsDaily(stateDir, now);
    await makeRun('old', 8);
    const later = new Date(now.getTime() + DAY - 1000);
    expect(await sweepScratchpadsDaily(stateDir, later)).toEqual([]);
    expect(await exists(join(stateDir, 'runs', 'old', 'scratchpad'))).toBe(true);
  });

  // A run start must not pay a stat per run: the process remembers the day's sweep.
  it('does not read the marker again within a day of a sweep it made or saw', async () => {
    await sweepScratchpadsDaily(stateDir, now);
    await rm(join(stateDir, SWEEP_MARKER));
    await makeRun('old', 8);
    const later = new Date(now.getTime() + DAY - 1000);
    expect(await sweepScratchpadsDaily(stateDir, later)).toEqual([]);
    expect(await exists(join(stateDir, SWEEP_MARKER))).toBe(false);
    expect(await exists(join(stateDir, 'runs', 'old', 'scratchpad'))).toBe(true);
  });

  it('sweeps again a day after the last sweep', async () => {
    await sweepScratchpadsDaily(stateDir, now);
    await makeRun('old', 8);
    const nextDay = new Date(now.getTime() + DAY);
    expect(await sweepScratchpadsDaily(stateDir, nextDay)).toEqual(['old']);
    expect((await stat(join(stateDir, SWEEP_MARKER))).mtimeMs).toBe(nextDay.getTime());
  });
});
