import { describe, expect, it } from 'vitest';
import { openProject, runEval } from '../../src/index.ts';
import { evalProject } from '../e2e/eval-harness.ts';

describe('runEval (library)', { timeout: 120_000 }, () => {
  it('checks TypeScript scorer functions on every run after the eval expectations', async () => {
    const { root, mock, stateDir } = evalProject();
    const project = await openProject(root, { env: {} });
    const keys: string[] = [];
    const report = await runEval(project, {
      mockModel: mock,
      stateDir,
      cases: ['grace'],
      repeat: 1,
      scorers: [
        {
          name: 'summary under 6 characters',
          score: ({ facts }) => {
            const summary = facts.summary.tasks[0]?.summary ?? '';
            return { passed: summary.length < 6, seen: JSON.stringify(summary) };
          },
        },
      ],
      onProgress: (progress) => {
        if (progress.type === 'scored') keys.push(progress.run.key);
      },
    });
    expect(keys.sort()).toEqual(['curt/grace/1', 'warm/grace/1']);
    expect(report.cells.map((cell) => [cell.variant, cell.passRate, cell.failures])).toEqual([
      [
        'warm',
        0,
        [
          {
            label: 'summary under 6 characters',
            seen: '"Hello there!"',
            runId: report.runs[0]?.runId,
            repeat: 1,
          },
        ],
      ],
      ['curt', 1, []],
    ]);
    expect(report.runs.map((run) => run.results.map((result) => result.label))).toEqual([
      [
        'succeeded',
        'max commander_turns 4',
        'max rejected_tool_calls 0',
        'summary under 6 characters',
      ],
      [
        'succeeded',
        'max commander_turns 4',
        'max rejected_tool_calls 0',
        'summary under 6 characters',
      ],
    ]);
  });

  it('lets runs in flight finish past --max-cost and reports how much they spent past it', async () => {
    const { root, mock, stateDir } = evalProject();
    const project = await openProject(root, { env: {} });
    // Both first runs start at once (nothing spent yet); each costs more than the limit.
    const report = await runEval(project, {
      mockModel: mock,
      stateDir,
      cases: ['ada'],
      repeat: 2,
      concurrency: 2,
      maxCostDollars: 0.00001,
    });
    expect(report.runs.map((run) => [run.key, run.metrics.costDollars])).toEqual([
      ['warm/ada/1', 0.000027],
      ['curt/ada/1', 0.0000105],
    ]);
    expect(report.notRun).toEqual(['warm/ada/2', 'curt/ada/2']);
    expect(report.costLimit).toEqual({
      limitDollars: 0.00001,
      spentDollars: 0.0000375,
      pastDollars: 0.0000275,
    });
  });

  it('runs 12 at once sharing one cancel signal without a listener-leak warning', async () => {
    const { root, mock, stateDir } = evalProject();
    const project = await openProject(root, { env: {} });
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(warning.name);
    };
    process.on('warning', onWarning);
    try {
      const report = await runEval(project, {
        mockModel: mock,
        stateDir,
        cases: ['ada'],
        repeat: 6,
        concurrency: 12,
      });
      expect(report.runs).toHaveLength(12);
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).toEqual([]);
  });
});
