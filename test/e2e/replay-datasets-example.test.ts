/**
 * The datasets example runs offline from its shipped cassette, exactly as its README says:
 * no key, no network, its sample brief.pdf as the file input, both iterations as scripted.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, cleanUpAll, jsonLines, runDirs, sortie } from './agent-tools-harness.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';

const CITIES = '[{"name":"Lisbon","country":"Portugal"},{"name":"Porto","country":"Portugal"}]';
const CASSETTE = 'examples/datasets/cassette.jsonl';
const BRIEF = 'examples/datasets/brief.pdf';
const OFFLINE = ['run', 'examples/datasets', '--input', `cities=${CITIES}`];

afterAll(cleanUpAll);

describe('examples/datasets offline (CLI, shipped cassette)', () => {
  it('documents the offline command in its README', async () => {
    const readme = await readFile(join(ROOT, 'examples/datasets/README.md'), 'utf8');
    expect(readme).toContain(
      `sortie run examples/datasets --input cities='${CITIES}' --input brief=@${BRIEF} --replay-model ${CASSETTE}\n`,
    );
  });

  it('ships a one-page PDF brief and a cassette recorded from the mock model', async () => {
    const brief = await readFile(join(ROOT, BRIEF), 'latin1');
    expect(brief.startsWith('%PDF-1.4\n')).toBe(true);
    expect(brief.endsWith('%%EOF\n')).toBe(true);
    const [header, ...entries] = jsonLines(await readFile(join(ROOT, CASSETTE), 'utf8'));
    expect(header?.note).toBe(
      'recorded by sortie run from the mock model examples/datasets/mock.yaml',
    );
    expect(entries).toHaveLength(33);
  });

  it('runs both iterations from the cassette with no key and exits 0', async () => {
    const stateDir = join(await temporaryDirectory('datasets-offline'), 'state');
    const run = await sortie([
      ...OFFLINE,
      '--input',
      `brief=@${BRIEF}`,
      '--replay-model',
      CASSETTE,
      '--state-dir',
      stateDir,
      '--quiet',
    ]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout.split('\n').slice(0, 3)).toEqual([
      'tasks:',
      '  research  succeeded · items 2 succeeded, 0 failed  iterated over 2 items of dataset cities: 2 succeeded, 0 failed',
      '  write     succeeded  Wrote the three sections of the Lisbon and Porto guide.',
    ]);

    const [run1] = await runDirs(stateDir);
    const journal = jsonLines(await readFile(join(String(run1), 'journal.jsonl'), 'utf8'));
    const sections = journal
      .filter((event) => event.type === 'output.submitted' && event.task === 'write')
      .map((event) => [event.index, (event.output as { section: string }).section]);
    expect(sections).toEqual([
      [0, 'Getting around'],
      [1, 'Where to eat'],
      [2, 'One perfect day'],
    ]);
  }, 60_000);
});
