import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UnknownRunError } from '../../src/journal/journal-errors.ts';
import { findRunId, resolveStateDir, runPaths } from '../../src/journal/paths.ts';
import { UsageError } from '../../src/base/errors.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';

describe('resolveStateDir', () => {
  it('prefers --state-dir, resolved against the working directory', () => {
    expect(
      resolveStateDir({
        stateDir: 'state',
        env: { SORTIE_HOME: '/env' },
        projectRoot: '/project',
        cwd: '/work',
      }),
    ).toBe('/work/state');
  });

  it('uses SORTIE_HOME when no flag is given', () => {
    expect(
      resolveStateDir({ env: { SORTIE_HOME: '/env/home' }, projectRoot: '/project', cwd: '/work' }),
    ).toBe('/env/home');
  });

  it('defaults to .sortie in the project root', () => {
    expect(
      resolveStateDir({ env: { SORTIE_HOME: '' }, projectRoot: '/project', cwd: '/work' }),
    ).toBe('/project/.sortie');
  });
});

describe('layout', () => {
  it('places a run under runs/RUN_ID', () => {
    expect(runPaths('/s', 'abc')).toEqual({
      dir: '/s/runs/abc',
      journal: '/s/runs/abc/journal.jsonl',
    });
  });

  it.each(['..', '../x', 'a/b', 'a\\b', '', '/abs'])('refuses %j as a run id', (runId) => {
    expect(() => runPaths('/s', runId)).toThrow(UsageError);
  });
});

describe('findRunId', () => {
  async function stateWith(ids: string[]): Promise<string> {
    const stateDir = await temporaryDirectory();
    for (const id of ids) await mkdir(join(stateDir, 'runs', id), { recursive: true });
    return stateDir;
  }

  it('accepts a full id or a unique prefix', async () => {
    const stateDir = await stateWith(['20260101-aaa', '20260102-bbb', '20260102-bbc']);
    expect(await findRunId(stateDir, '20260101-aaa')).toBe('20260101-aaa');
    expect(await findRunId(stateDir, '20260101')).toBe('20260101-aaa');
    expect(await findRunId(stateDir, '20260102-bbc')).toBe('20260102-bbc');
  });

  it('lists the candidates of an ambiguous prefix', async () => {
    const stateDir = await stateWith(['20260102-bbc', '20260102-bbb']);
    const error = await findRunId(stateDir, '20260102').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UnknownRunError);
    expect((error as UnknownRunError).message).toBe(
      'run id "20260102" is ambiguous: it matches 20260102-bbb, 20260102-bbc',
    );
  });

  it('says when no run matches, also without a runs folder', async () => {
    const stateDir = await temporaryDirectory();
    await expect(findRunId(stateDir, 'x')).rejects.toMatchObject({
      message: 'no run "x" in this state directory',
      hint: 'list the runs with `sortie runs`',
    });
  });
});
