/**
 * Runs are found from any folder: the CLI indexes every run under XDG_STATE_HOME (here a
 * folder of the test's own), so `runs`, `show`, `replay` and `resume` take a run id without
 * the project, and a run's first line says where its journal is.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { sortieSync } from './cli-child.ts';
import { temporaryDirectorySync } from '../helpers/temp-dir.ts';

let base: string;
let demo: string;
let elsewhere: string;
const sortie = (args: string[], cwd: string) =>
  sortieSync(args, { XDG_STATE_HOME: join(base, 'state'), SORTIE_HOME: undefined }, cwd);

function indexedIds(): string[] {
  const text = readFileSync(join(base, 'state', 'sortie', 'runs.jsonl'), 'utf8');
  return text
    .trimEnd()
    .split('\n')
    .map((line) => (JSON.parse(line) as { runId: string }).runId);
}

beforeAll(() => {
  base = temporaryDirectorySync('anywhere');
  demo = join(base, 'demo');
  elsewhere = temporaryDirectorySync('elsewhere');
  expect(sortie(['init', demo], base).status).toBe(0);
  // Only the commander's first answer: its second request has none, so the run fails.
  writeFileSync(
    join(base, 'short.yaml'),
    'commander:greet:\n  - tool: set_subtasks\n    arguments: { subtasks: [Ask] }\n',
  );
});

// Each test starts several CLI children, slow on a loaded machine.
describe('runs found from any folder (child process)', { timeout: 120_000 }, () => {
  it('indexes a run, says its journal on the first line, and shows it from another folder', () => {
    const run = sortie(['run', '.', '--mock-model', 'mock.yaml'], demo);
    expect(run.status).toBe(0);
    const [runId] = indexedIds().slice(-1);
    const journal = join(demo, '.sortie', 'runs', String(runId), 'journal.jsonl');
    expect(run.stdout.split('\n')[0]).toBe(
      `00:00.0 run  started run ${runId} (mission hello) · journal ${journal}`,
    );
    expect(JSON.parse(readFileSync(join(base, 'state', 'sortie', 'runs.jsonl'), 'utf8'))).toEqual({
      runId,
      stateDir: join(demo, '.sortie'),
      project: demo,
      mission: 'hello',
      startedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as unknown,
    });

    const runs = sortie(['runs'], elsewhere);
    expect(runs.status).toBe(0);
    const [header, row] = runs.stdout.split('\n');
    expect(header?.split(/ {2,}/)).toEqual([
      'RUN ID',
      'MISSION',
      'STATUS',
      'STARTED',
      'DURATION',
      'TOKENS',
      'COST',
      'PROJECT',
    ]);
    expect(row?.startsWith(`${runId}  hello    succeeded`)).toBe(true);
    expect(row?.endsWith(`132  <$0.0001  ${demo}`)).toBe(true);

    const show = sortie(['show', String(runId).slice(0, 21)], elsewhere);
    expect(show.status).toBe(0);
    expect(show.stdout.split('\n')[0]).toBe(`run ${runId} · hello · succeeded`);

    const replay = sortie(['replay', String(runId)], elsewhere);
    expect(replay.status).toBe(0);
    expect(replay.stdout.split('\n')[0]).toBe(
      `00:00.0 run  started run ${runId} (mission hello) · journal ${journal}`,
    );
  });

  it('resumes a failed run from another folder with no project given', () => {
    const failed = sortie(['run', demo, '--mock-model', join(base, 'short.yaml'), '--quiet'], base);
    expect(failed.status).toBe(1);
    const [runId] = indexedIds().slice(-1);
    const resumed = sortie(
      ['resume', String(runId), '--mock-model', join(demo, 'mock.yaml'), '--quiet'],
      elsewhere,
    );
    expect(resumed.stderr).toBe('');
    expect(resumed.status).toBe(0);
    expect(resumed.stdout.split('\n').slice(0, 2)).toEqual([
      'tasks:',
      '  greet  succeeded  The greeter wrote: Hello, world! Good to have you here.',
    ]);
  });

  it('names the places searched for an unknown run id', () => {
    expect(sortie(['show', 'nope'], elsewhere)).toEqual({
      status: 2,
      stdout: '',
      stderr: [
        `error: no run "nope" in ${join(elsewhere, '.sortie')} or the run index ${join(base, 'state', 'sortie', 'runs.jsonl')}`,
        'hint: list the runs with `sortie runs`, or point --state-dir at the right place',
        '',
      ].join('\n'),
    });
  });
});
