/**
 * The research example runs offline from its shipped cassette, exactly as its README says:
 * no key, no network, every task as scripted, the route to `publish` taken.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, cleanUpAll, jsonLines, runDirs, sortie } from './agent-tools-harness.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';

const QUESTION = 'Why is the sky blue?';
const CASSETTE = 'examples/research/cassette.jsonl';
const OFFLINE = ['run', 'examples/research', '--input', `question=${QUESTION}`];

afterAll(cleanUpAll);

describe('examples/research offline (CLI, shipped cassette)', () => {
  it('documents the offline command in its README', async () => {
    const readme = await readFile(join(ROOT, 'examples/research/README.md'), 'utf8');
    expect(readme).toContain(
      `sortie run examples/research --input question="${QUESTION}" --replay-model ${CASSETTE}\n`,
    );
  });

  it('ships a cassette that says it is scripted, not real model output', async () => {
    const text = await readFile(join(ROOT, CASSETTE), 'utf8');
    const [header, ...entries] = jsonLines(text);
    expect(String(header?.note).startsWith('scripted, not real model output')).toBe(true);
    expect(entries).toHaveLength(21);
  });

  it('runs every task from the cassette with no key and exits 0', async () => {
    const stateDir = join(await temporaryDirectory('research-offline'), 'state');
    const run = await sortie([...OFFLINE, '--replay-model', CASSETTE, '--state-dir', stateDir]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const summary = run.stdout.slice(run.stdout.indexOf('\ntasks:\n') + 1).split('\n');
    // Final answers are printed whole; one that does not fit the row goes below it.
    expect(summary.slice(0, summary.indexOf('outputs:') + 1)).toEqual([
      'tasks:',
      '  gather     succeeded',
      '      Two sources explain it by Rayleigh scattering: https://en.wikipedia.org/wiki/Rayleigh_scattering, https://www.metoffice.gov.uk/weather/learn-about/weather/optical-effects/why-is-the-sky-blue',
      '  analyze    succeeded  Two findings: Rayleigh scattering (0.95), why blue not violet (0.8)',
      '  decide     succeeded  The main finding is well supported; the open gap is a detail.',
      '  follow_up  skipped  not activated',
      '  publish    succeeded',
      '      The sky is blue because the air scatters sunlight, and it scatters short wavelengths much more than long ones (Rayleigh scattering). Blue light is bounced around the whole sky and reaches your eyes from every direction. Violet is scattered even more, but sunlight holds less of it and our eyes are less sensitive to it, so we see blue. Sources: Wikipedia, "Rayleigh scattering"; Met Office, "Why is the sky blue?".',
      'outputs:',
    ]);
    expect(summary.slice(-3)).toEqual([
      '  openai.gpt_4_1_mini            1 request     790 tokens  $0.0005',
      '  total                        21 requests  52,595 tokens  $0.0483',
      '',
    ]);

    const [run1] = await runDirs(stateDir);
    const journal = jsonLines(await readFile(join(String(run1), 'journal.jsonl'), 'utf8'));
    const analyze = journal.find(
      (event) => event.type === 'task.succeeded' && event.task === 'analyze',
    );
    expect(analyze?.output).toMatchObject({
      findings: [{ confidence: 0.95 }, { confidence: 0.8 }],
      gaps: ['How much each of the three violet effects contributes'],
    });
    expect(journal.filter((event) => event.type === 'route.chosen')).toMatchObject([
      { task: 'decide', route: 'publish' },
    ]);
  }, 60_000);

  it('fails with the diff for a question the cassette was not recorded with', async () => {
    const stateDir = join(await temporaryDirectory('research-other'), 'state');
    const run = await sortie([
      'run',
      'examples/research',
      '--input',
      'question=Why is the sea salty?',
      '--replay-model',
      CASSETTE,
      '--state-dir',
      stateDir,
      '--quiet',
    ]);
    expect(run.status).toBe(1);
    expect(run.stdout.split('\n').slice(0, 2)).toEqual([
      'tasks:',
      '  gather     failed  model request of commander:gather (turn 1) differs from the cassette in messages:',
    ]);
  }, 60_000);
});
