import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addToRunIndex } from '../../src/journal/run-index.ts';
import { findRun } from '../../src/run/find-run.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';

/** A home with a run index, two projects' state directories, and a folder holding neither. */
async function world(): Promise<{
  env: Record<string, string>;
  a: string;
  b: string;
  cwd: string;
}> {
  const base = await temporaryDirectory('find');
  const env = { XDG_STATE_HOME: join(base, 'state') };
  const index = join(base, 'state', 'sortie', 'runs.jsonl');
  const a = join(base, 'a');
  const b = join(base, 'b');
  for (const [project, runId] of [
    [a, '20261124-aaa'],
    [b, '20261124-bbb'],
    [b, '20261125-ccc'],
  ] as const) {
    await mkdir(join(project, '.sortie', 'runs', runId), { recursive: true });
    const entry = { runId, stateDir: join(project, '.sortie'), project, mission: 'm' };
    await addToRunIndex(index, { ...entry, startedAt: '2026-11-24T00:00:00.000Z' });
  }
  // Indexed, but its folder was deleted since.
  const gone = { runId: '20261126-gone', stateDir: join(b, '.sortie'), project: b, mission: 'm' };
  await addToRunIndex(index, { ...gone, startedAt: '2026-11-26T00:00:00.000Z' });
  const cwd = join(base, 'elsewhere');
  await mkdir(cwd);
  return { env, a, b, cwd };
}

describe('findRun', () => {
  it('finds a run of any project from a folder without one, by id or unique prefix', async () => {
    const { env, b, cwd } = await world();
    const found = {
      runId: '20261125-ccc',
      stateDir: join(b, '.sortie'),
      journal: join(b, '.sortie', 'runs', '20261125-ccc', 'journal.jsonl'),
      project: b,
    };
    expect(await findRun('20261125-ccc', { env, cwd })).toEqual(found);
    expect(await findRun('20261125', { env, cwd })).toEqual(found);
  });

  it('lists the candidates of a prefix matching runs of several projects', async () => {
    const { env, cwd } = await world();
    await expect(findRun('20261124', { env, cwd })).rejects.toThrow(
      'run id "20261124" is ambiguous: it matches 20261124-aaa, 20261124-bbb',
    );
  });

  it('looks only in --state-dir when given, and knows the project from the index', async () => {
    const { env, a, b, cwd } = await world();
    const stateDir = join(a, '.sortie');
    expect(await findRun('2026', { env, cwd, stateDir })).toMatchObject({
      runId: '20261124-aaa',
      project: a,
    });
    await expect(findRun('20261125', { env, cwd, stateDir })).rejects.toThrow(
      `no run "20261125" in ${stateDir}`,
    );
    expect((await findRun('20261125', { env, cwd: b })).project).toBe(b);
  });

  it('does not find a run whose folder was deleted, and names where it looked', async () => {
    const { env, cwd } = await world();
    await expect(findRun('20261126', { env, cwd })).rejects.toMatchObject({
      message: `no run "20261126" in ${join(cwd, '.sortie')} or the run index ${join(String(env.XDG_STATE_HOME), 'sortie', 'runs.jsonl')}`,
      hint: 'list the runs with `sortie runs`, or point --state-dir at the right place',
    });
  });

  it('without an index finds the runs of the folder given only', async () => {
    const { a } = await world();
    expect((await findRun('2026', { env: {}, directory: a })).runId).toBe('20261124-aaa');
    await expect(findRun('x', { env: {}, directory: a })).rejects.toThrow(
      `no run "x" in ${join(a, '.sortie')}`,
    );
  });
});
