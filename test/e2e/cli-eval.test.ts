/**
 * `sortie eval` through the real CLI with mock models: 3 cases × 2 variants × 3 repeats where
 * one variant fails one case, the JSON and JUnit reports, `--compare`, `--record` then
 * `--replay-model`, and a SIGKILL in the middle followed by the same command.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { evalProject, sortieEval, withoutRunIdsAndTimes } from './eval-harness.ts';

const SPREAD = {
  type: 'object',
  required: ['mean', 'p95'],
  properties: { mean: { type: 'number' }, p95: { type: 'number' } },
};
const REPORT_SCHEMA = {
  type: 'object',
  required: ['version', 'passed', 'evals'],
  properties: {
    version: { const: 1 },
    passed: { type: 'boolean' },
    evals: {
      type: 'array',
      items: {
        type: 'object',
        required: ['eval', 'mission', 'variants', 'cases', 'cells', 'totals', 'runs', 'passed'],
        properties: {
          cells: {
            type: 'array',
            items: {
              type: 'object',
              required: ['variant', 'case', 'passRate', 'failures', 'metrics', 'runIds'],
              properties: {
                metrics: {
                  type: 'object',
                  required: [
                    'costDollars',
                    'tokens',
                    'requests',
                    'commanderTurns',
                    'durationSeconds',
                  ],
                  additionalProperties: SPREAD,
                },
              },
            },
          },
          runs: {
            type: 'array',
            items: { type: 'object', required: ['key', 'runId', 'status', 'passed', 'results'] },
          },
        },
      },
    },
  },
};

interface Report {
  passed: boolean;
  evals: Array<{
    cells: Array<{
      variant: string;
      case: string;
      passRate: number;
      failures: Array<{ label: string; seen: string }>;
      metrics: { commanderTurns: { mean: number } };
    }>;
    runs: Array<{ key: string; runId: string }>;
  }>;
}

// Each test runs the CLI through up to 36 mocked runs, slow on a loaded machine.
describe('sortie eval (child process, mock models)', { timeout: 240_000 }, () => {
  it('exits 1 when one variant fails one case, naming the expectation and the value seen', async () => {
    const { root, mock, stateDir } = evalProject();
    const json = join(root, 'report.json');
    const junit = join(root, 'report.xml');
    const result = await sortieEval([
      'eval',
      root,
      '--mock-model',
      mock,
      '--state-dir',
      stateDir,
      '--json',
      json,
      '--junit',
      junit,
    ]);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(1);
    const text = withoutRunIdsAndTimes(result.stdout);
    expect(text).toContain(
      [
        'case   warm        curt',
        'ada    3/3 100% ✓  0/3 0% ✗ (needs 100%)',
        'grace  3/3 100% ✓  3/3 100% ✓',
        'alan   3/3 100% ✓  3/3 100% ✓',
      ].join('\n'),
    );
    for (const repeat of [1, 2, 3]) {
      expect(text).toContain(
        `  curt · ada · repeat ${repeat} · run RUN: summary greet contains "Hello" — seen "Hi."\n`,
      );
    }
    expect(text).toContain('failed: 1 of 6 cells below their threshold\n');
    const report = JSON.parse(readFileSync(json, 'utf8')) as Report;
    const validate = new Ajv().compile(REPORT_SCHEMA);
    expect(validate(report)).toBe(true);
    expect(report.passed).toBe(false);
    expect(report.evals[0]?.cells.map((cell) => [cell.variant, cell.case, cell.passRate])).toEqual([
      ['warm', 'ada', 1],
      ['warm', 'grace', 1],
      ['warm', 'alan', 1],
      ['curt', 'ada', 0],
      ['curt', 'grace', 1],
      ['curt', 'alan', 1],
    ]);
    expect(report.evals[0]?.runs).toHaveLength(18);
    const xml = readFileSync(junit, 'utf8');
    expect(xmlProblems(xml)).toEqual([]);
    expect(xml.match(/<testcase /g)).toHaveLength(6);
    expect(
      withoutRunIdsAndTimes(xml.match(/<failure[^>]*>[^<]*<\/failure>/g)?.join('\n') ?? ''),
    ).toBe(
      '<failure message="pass rate 0/3, needs 100%" type="threshold">' +
        [1, 2, 3]
          .map(
            (repeat) => `run RUN (repeat ${repeat}): summary greet contains "Hello" — seen "Hi."`,
          )
          .join('\n') +
        '</failure>',
    );
  });

  it('marks a regression against --compare and exits 1 though every case passes', async () => {
    const { root, mock, stateDir } = evalProject();
    const first = join(root, 'first.json');
    const common = [
      'eval',
      root,
      '--mock-model',
      mock,
      '--state-dir',
      stateDir,
      '--variant',
      'warm',
    ];
    expect((await sortieEval([...common, '--json', first])).status).toBe(0);
    // The earlier report as if warm/grace had needed 2 commander turns instead of 4.
    const previous = JSON.parse(readFileSync(first, 'utf8')) as Report;
    const cell = previous.evals[0]?.cells.find((item) => item.case === 'grace');
    if (cell !== undefined) cell.metrics.commanderTurns.mean = 2;
    writeFileSync(first, JSON.stringify(previous));
    const second = await sortieEval([...common, '--compare', first]);
    expect(second.status).toBe(1);
    expect(second.stdout).toContain('regression: warm · grace: commander turns 2 → 4\n');
    expect(second.stdout).toContain('failed: 1 regressions\n');
  });

  it('replays a recorded eval into the same report', async () => {
    const { root, mock, stateDir } = evalProject();
    const cassettes = join(root, 'cassettes');
    const common = ['eval', root, '--state-dir', stateDir, '--case', 'ada', '--repeat', '2'];
    const recorded = await sortieEval([...common, '--mock-model', mock, '--record', cassettes]);
    const replayed = await sortieEval([...common, '--replay-model', cassettes]);
    expect(recorded.status).toBe(1);
    expect(replayed.status).toBe(1);
    const report = (output: string): string =>
      withoutRunIdsAndTimes(output.slice(output.indexOf('eval greetings ·')));
    expect(report(replayed.stdout)).toBe(report(recorded.stdout));
    expect(readFileSync(join(cassettes, 'curt', 'ada', '2.jsonl'), 'utf8')).toContain('"Hi."');
  });

  it('goes on after a SIGKILL with the runs not finished, saying which it skipped', async () => {
    const { root, mock, stateDir } = evalProject();
    const args = [
      'eval',
      root,
      '--mock-model',
      mock,
      '--state-dir',
      stateDir,
      '--concurrency',
      '1',
    ];
    let scored = 0;
    const killed = await sortieEval(args, (line, kill) => {
      if (/^[✓✗] /.test(line) && ++scored === 3) kill();
    });
    expect(killed.status).toBe(null);
    const again = await sortieEval(args);
    expect(again.status).toBe(1);
    const planned =
      /^eval greetings: 18 runs \((\d+) finished before and not run again: (.*)\)$/m.exec(
        again.stdout,
      );
    const skipped = Number(planned?.[1]);
    expect(skipped).toBeGreaterThanOrEqual(3);
    const keys = planned?.[2]?.split(', ') ?? [];
    expect(keys.slice(0, 3)).toEqual(['warm/ada/1', 'curt/ada/1', 'warm/grace/1']);
    expect(again.stdout.match(/\(finished before\)/g)).toHaveLength(skipped);
    expect(again.stdout.match(/^[✓✗] /gm)).toHaveLength(18);
  });
});

/** Problems of an XML document's structure: unbalanced or misnested tags. */
function xmlProblems(xml: string): string[] {
  const problems: string[] = [];
  const open: string[] = [];
  if (!xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')) problems.push('no declaration');
  for (const match of xml.matchAll(/<(\/?)([a-z-]+)[^>]*?(\/?)>/g)) {
    const [, closing, name = '', selfClosing] = match;
    if (selfClosing === '/') continue;
    if (closing === '/') {
      if (open.pop() !== name) problems.push(`</${name}> closes nothing open`);
    } else open.push(name);
  }
  if (open.length > 0) problems.push(`unclosed: ${open.join(', ')}`);
  return problems;
}
