/**
 * The example eval runs offline exactly as the READMEs say: examples/hello's greetings eval
 * answered by its mock-model file (the mission and the judge), every case passing, exit 0.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runChild } from './cli-child.ts';
import { withoutRunIdsAndTimes } from './eval-harness.ts';
import { temporaryDirectorySync } from '../helpers/temp-dir.ts';

const COMMAND = 'eval examples/hello --mock-model examples/hello/.evals/mock.yaml';

describe('examples/hello/.evals offline (CLI, mock model)', { timeout: 120_000 }, () => {
  it('documents the one command in the example, the README and docs/eval.md', () => {
    for (const file of ['examples/hello/README.md', 'README.md', 'docs/eval.md']) {
      expect(readFileSync(join(ROOT, file), 'utf8').replace(/\n/g, ' ')).toContain(COMMAND);
    }
  });

  it('runs every variant and case with no key, the judge answered by the mock file, and exits 0', async () => {
    // SORTIE_HOME keeps the runs out of the checkout, which the command alone would write to.
    const home = temporaryDirectorySync('eval-example');
    const result = await runChild(process.execPath, ['bin/sortie.js', ...COMMAND.split(' ')], {
      SORTIE_HOME: home,
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const text = withoutRunIdsAndTimes(result.stdout);
    expect(text.split('\n')[0]).toBe('eval greetings: 8 runs');
    expect(
      text.match(/^✓ (warm|formal)\/(ada|grace)\/[12] {2}run RUN {2}succeeded/gm),
    ).toHaveLength(8);
    expect(text.slice(text.indexOf('eval greetings ·'))).toBe(
      [
        'eval greetings · mission hello · 2 variants × 2 cases × 2 repeats',
        '',
        'case   warm        formal',
        'ada    2/2 100% ✓  2/2 100% ✓',
        'grace  2/2 100% ✓  2/2 100% ✓',
        '',
        'mean / p95 per run:',
        '  warm · ada      cost $0.0008/$0.0008  tokens 5265/5265  requests 5/5  turns 4/4  Ts/Ts',
        '  warm · grace    cost $0.0008/$0.0008  tokens 5265/5265  requests 5/5  turns 4/4  Ts/Ts',
        '  formal · ada    cost $0.0008/$0.0008  tokens 5261/5261  requests 5/5  turns 4/4  Ts/Ts',
        '  formal · grace  cost $0.0008/$0.0008  tokens 5261/5261  requests 5/5  turns 4/4  Ts/Ts',
        '',
        'variant totals:',
        '  warm: 4/4 runs passed · 2/2 cases meet their threshold · $0.0034 · 21060 tokens · judge $0.0002, 800 tokens',
        '  formal: 4/4 runs passed · 2/2 cases meet their threshold · $0.0034 · 21044 tokens · judge $0.0002, 800 tokens',
        '',
        'compare warm with formal:',
        '  ada: sortie diff RUN RUN',
        '  grace: sortie diff RUN RUN',
        '',
        'passed: every case meets its threshold',
        '',
      ].join('\n'),
    );
  });
});
