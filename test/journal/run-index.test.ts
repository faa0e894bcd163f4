import { appendFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  addToRunIndex,
  readRunIndex,
  runIndexPath,
  type RunIndexEntry,
} from '../../src/journal/run-index.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';

const entry = (runId: string, mission = 'm'): RunIndexEntry => ({
  runId,
  stateDir: `/state/${runId}`,
  project: '/project',
  mission,
  startedAt: '2026-11-24T00:00:00.000Z',
});

describe('runIndexPath', () => {
  it('is under SORTIE_HOME, else XDG_STATE_HOME/sortie, else ~/.local/state/sortie', () => {
    const all = { SORTIE_HOME: '/h', XDG_STATE_HOME: '/x', HOME: '/u' };
    expect(runIndexPath(all)).toBe('/h/runs.jsonl');
    expect(runIndexPath({ ...all, SORTIE_HOME: '' })).toBe('/x/sortie/runs.jsonl');
    expect(runIndexPath({ HOME: '/u' })).toBe('/u/.local/state/sortie/runs.jsonl');
  });

  it('is undefined when the environment names no home (nothing is indexed)', () => {
    expect(runIndexPath({})).toBeUndefined();
  });
});

describe('the run index file', () => {
  it('keeps every record of concurrent writers, each run once with its latest record', async () => {
    const path = join(await temporaryDirectory('index'), 'deep', 'runs.jsonl');
    const ids = Array.from({ length: 40 }, (_, index) => `run-${index}`);
    await Promise.all(ids.map((runId) => addToRunIndex(path, entry(runId))));
    await addToRunIndex(path, entry('run-3', 'resumed'));
    const read = await readRunIndex(path);
    expect(read.map((run) => run.runId).sort()).toEqual([...ids].sort());
    expect(read.find((run) => run.runId === 'run-3')?.mission).toBe('resumed');
  });

  it('skips torn and foreign lines and recovers a record glued to a torn one', async () => {
    const path = join(await temporaryDirectory('index'), 'runs.jsonl');
    await writeFile(path, `${JSON.stringify(entry('a'))}\n{"runId":"b","stat`);
    await appendFile(path, `${JSON.stringify(entry('c'))}\nnot json\n{"runId":""}\n[1]\n`);
    await appendFile(path, `${JSON.stringify({ ...entry('d'), project: 3 })}\n`);
    expect(await readRunIndex(path)).toEqual([entry('a'), entry('c')]);
  });

  it('is empty before the first run', async () => {
    const folder = await temporaryDirectory('index');
    expect(await readRunIndex(join(folder, 'runs.jsonl'))).toEqual([]);
  });
});
