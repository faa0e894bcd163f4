import { mkdir, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { formatRunSummary, formatRunsTable } from '../../src/cli/runs-text.ts';
import { runPaths } from '../../src/journal/paths.ts';
import { listRuns, type RunRow } from '../../src/journal/runs.ts';
import { summarizeRun } from '../../src/journal/summary.ts';
import { openJournal } from '../../src/journal/writer.ts';
import { EventBus } from '../../src/runtime/event-bus.ts';
import type { MissionEvent } from '../../src/base/events.ts';
import { emitSampleRun, steppingClock } from './sample-run.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';

function sampleSummary() {
  const events = emitSampleRun('run-1', '2026-01-01T00:00:00.000Z', []);
  return summarizeRun(events.filter((event) => event.type !== 'model.delta'));
}

describe('summarizeRun', () => {
  it('reports the run, its missions and its totals', () => {
    const summary = sampleSummary();
    expect({
      runId: summary.runId,
      mission: summary.mission,
      status: summary.status,
      startedAt: summary.startedAt,
      durationMs: summary.durationMs,
      tokens: summary.tokens,
      costPico: summary.costPico,
      unpriced: summary.unpriced,
      turns: summary.turns,
      missions: summary.missions,
      errors: summary.errors,
      warnings: summary.warnings,
    }).toEqual({
      runId: 'run-1',
      mission: 'research',
      status: 'failed',
      startedAt: '2026-01-01T00:00:00.000Z',
      durationMs: 71_500,
      tokens: 12_784,
      costPico: 41_620_000_000n,
      unpriced: true,
      turns: 3,
      missions: [
        {
          name: 'research',
          status: 'failed',
          chainedFrom: null,
          durationMs: 70_000,
          error: 'task analyze failed',
        },
      ],
      errors: [
        'task weather item 1 (rome): timeout again',
        'task analyze: no data',
        'mission research: task analyze failed',
      ],
      warnings: ['something odd'],
    });
  });

  it('reports each task with its outcome, items and spending', () => {
    const tasks = sampleSummary().tasks.map((task) => ({
      name: task.name,
      status: task.status,
      summary: task.summary,
      output: task.output,
      error: task.error,
      skip: task.skipReason,
      cause: task.skipCause,
      items: task.items,
      tokens: task.tokens,
      costPico: task.costPico,
      unpriced: task.unpriced,
    }));
    expect(tasks).toEqual([
      {
        name: 'fetch',
        status: 'succeeded',
        summary: 'Fetched 3 pages',
        output: { pages: 3 },
        error: undefined,
        skip: undefined,
        cause: undefined,
        items: [],
        tokens: 1200,
        costPico: 4_500_000_000n,
        unpriced: false,
      },
      {
        name: 'weather',
        status: 'succeeded',
        summary: '1 of 2 cities',
        output: null,
        error: undefined,
        skip: undefined,
        cause: undefined,
        items: [
          { index: 0, itemId: 'paris', status: 'succeeded', attempts: 1, output: { temp: 3 } },
          { index: 1, itemId: 'rome', status: 'failed', attempts: 2, error: 'timeout again' },
        ],
        tokens: 350,
        costPico: 0n,
        unpriced: true,
      },
      {
        name: 'analyze',
        status: 'failed',
        summary: undefined,
        output: undefined,
        error: 'no data',
        skip: undefined,
        cause: undefined,
        items: [],
        tokens: 11_234,
        costPico: 37_120_000_000n,
        unpriced: false,
      },
      {
        name: 'report',
        status: 'skipped',
        summary: undefined,
        output: undefined,
        error: undefined,
        skip: 'upstream_failed',
        cause: 'analyze',
        items: [],
        tokens: 0,
        costPico: 0n,
        unpriced: false,
      },
    ]);
  });

  it('reports spending per model', () => {
    expect(
      sampleSummary().models.map((model) => [
        model.model,
        model.apiName,
        model.turns,
        model.tokens,
        model.costPico,
        model.unpriced,
      ]),
    ).toEqual([
      ['openai.gpt', 'gpt-4o', 2, 12_434, 41_620_000_000n, false],
      ['local.small', 'llama3.2:3b', 1, 350, 0n, true],
    ]);
  });

  it('calls a run without run.finished interrupted unless told it is running', () => {
    const events = emitSampleRun('run-2', '2026-01-01T00:00:00.000Z', [], false);
    expect(summarizeRun(events).status).toBe('interrupted');
    expect(summarizeRun(events, 'running').status).toBe('running');
    // From run.started (second 0) to the last event (second 21).
    expect(summarizeRun(events).durationMs).toBe(21_000);
  });
});

describe('summarizeRun of a resumed run', () => {
  it('counts every session: a crashed one up to its last event, a finished one as its run.finished says', () => {
    const bus = new EventBus({ runId: 'r', now: steppingClock('2026-01-01T00:00:00.000Z') });
    const events: MissionEvent[] = [];
    bus.subscribe((event) => events.push(event));
    const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 };
    const finish = (outcome: 'failed' | 'succeeded', durationMs: number): void => {
      bus.emit({
        type: 'run.finished',
        actor: 'run',
        outcome,
        exitCode: outcome === 'failed' ? 1 : 0,
        durationMs,
        usage,
        costPico: '0',
      });
    };
    // Session 1 (seconds 0-2) is killed after its third event.
    bus.emit({ type: 'run.started', actor: 'run', mission: 'm', resumed: false });
    bus.emit({ type: 'warning', actor: 'run', code: 'c', message: 'one' });
    bus.emit({ type: 'warning', actor: 'run', code: 'c', message: 'two' });
    const crashed = summarizeRun(events);
    // Session 2 (seconds 3-4) fails: its run.finished counts session 1 too (2 s + 1 s).
    bus.emit({ type: 'run.started', actor: 'run', mission: 'm', resumed: true });
    finish('failed', 3_000);
    const failed = summarizeRun(events);
    // Session 3 (seconds 5-7) is resumed, killed, then session 4 (8-9) succeeds.
    bus.emit({ type: 'run.started', actor: 'run', mission: 'm', resumed: true });
    bus.emit({ type: 'warning', actor: 'run', code: 'c', message: 'three' });
    bus.emit({ type: 'warning', actor: 'run', code: 'c', message: 'four' });
    const interrupted = summarizeRun(events);
    bus.emit({ type: 'run.started', actor: 'run', mission: 'm', resumed: true });
    finish('succeeded', 6_000);
    const succeeded = summarizeRun(events);
    expect(
      [crashed, failed, interrupted, succeeded].map((summary) => [
        summary.status,
        summary.durationMs,
        summary.resumed,
      ]),
    ).toEqual([
      ['interrupted', 2_000, false],
      ['failed', 3_000, true],
      ['interrupted', 5_000, true],
      ['succeeded', 6_000, true],
    ]);
  });
});

describe('formatRunSummary', () => {
  it('prints tasks, outputs, items, costs and errors as plain aligned text', () => {
    expect(formatRunSummary(sampleSummary(), { timeZone: 'UTC' })).toBe(
      [
        'run run-1 · research · failed',
        'started 2026-01-01 00:00:00 · 1m 11s · 12,784 tokens · $0.0416*',
        '',
        'tasks',
        '  fetch    succeeded                    3.2s   1,200 tokens   $0.0045',
        '    summary  Fetched 3 pages',
        '    output   {"pages":3}',
        '  weather  succeeded                  1m 05s     350 tokens  $0.0000*',
        '    summary  1 of 2 cities',
        '    [0] paris  succeeded            {"temp":3}',
        '    [1] rome   failed (2 attempts)  timeout again',
        '  analyze  failed                      800ms  11,234 tokens   $0.0371',
        '    error    no data',
        '  report   skipped (upstream_failed)',
        '    cause    analyze',
        '',
        'costs by model',
        '  openai.gpt   gpt-4o       2 turns  12,434 tokens   $0.0416',
        '  local.small  llama3.2:3b   1 turn     350 tokens  $0.0000*',
        '',
        'fork points (sortie fork run-1 --at SEQ)',
        '  mission:research             start 2',
        '  commander:fetch              reply 6',
        '  agent:weather[0]/researcher  reply 12',
        '  commander:analyze            reply 19',
        '',
        'errors',
        '  task weather item 1 (rome): timeout again',
        '  task analyze: no data',
        '  mission research: task analyze failed',
        '',
        'warnings',
        '  something odd',
        '',
        '* some models have no known price; their turns count as $0',
        '',
      ].join('\n'),
    );
  });

  it("lists each actor's replies and tool results by seq, the way --at takes them", () => {
    const summary = {
      ...sampleSummary(),
      errors: [],
      warnings: [],
      forkPoints: [
        { actor: 'mission:poem', starts: [3], replies: [], results: [] },
        { actor: 'commander:write', starts: [], replies: [6, 10, 15], results: [8, 13] },
        { actor: 'agent:write/poet', starts: [], replies: [11], results: [] },
      ],
    };
    const text = formatRunSummary(summary, { timeZone: 'UTC' });
    expect(text.slice(text.indexOf('fork points'))).toBe(
      [
        'fork points (sortie fork run-1 --at SEQ)',
        '  mission:poem      start 3',
        '  commander:write   replies 6 10 15 · results 8 13',
        '  agent:write/poet  reply 11',
        '',
        '* some models have no known price; their turns count as $0',
        '',
      ].join('\n'),
    );
  });

  it('lists the budgets the person raised, before the errors', () => {
    const events = emitSampleRun('run-1', '2026-01-01T00:00:00.000Z', []);
    const raised: MissionEvent = {
      seq: 1_000,
      time: '2026-01-01T00:00:30.000Z',
      runId: 'run-1',
      actor: 'task:analyze',
      type: 'budget.raised',
      scope: 'task',
      subject: 'analyze',
      metric: 'dollars',
      from: '10000000000',
      to: '15000000000',
      how: 'half',
    };
    const summary = summarizeRun([
      ...events.filter((event) => event.type !== 'model.delta'),
      raised,
    ]);
    expect(summary.budgetRaises).toEqual(['task analyze: $0.0100 → $0.0150 (+50%)']);
    const text = formatRunSummary(summary, { timeZone: 'UTC' });
    expect(text.slice(text.indexOf('budgets raised'), text.indexOf('errors'))).toBe(
      ['budgets raised', '  task analyze: $0.0100 → $0.0150 (+50%)', '', ''].join('\n'),
    );
  });

  it('uses no escape codes unless colour is asked for', () => {
    const summary = sampleSummary();
    expect(formatRunSummary(summary, { timeZone: 'UTC' })).not.toContain('\u001b');
    expect(formatRunSummary(summary, { timeZone: 'UTC', color: true }).split('\n')[0]).toBe(
      'run run-1 · research · \u001b[31mfailed\u001b[39m',
    );
  });
});

describe('listRuns', () => {
  it('lists runs newest first with running, interrupted and corrupt ones', async () => {
    const stateDir = await temporaryDirectory();
    const finished = await openJournal(runPaths(stateDir, '20260101-aaa').dir);
    emitSampleRun('20260101-aaa', '2026-01-01T00:00:00.000Z', [finished.subscriber]);
    await finished.close();
    const interrupted = await openJournal(runPaths(stateDir, '20260103-ccc').dir);
    emitSampleRun('20260103-ccc', '2026-01-03T00:00:00.000Z', [interrupted.subscriber], false);
    await interrupted.close();
    const running = await openJournal(runPaths(stateDir, '20260102-bbb').dir);
    emitSampleRun('20260102-bbb', '2026-01-02T00:00:00.000Z', [running.subscriber], false);
    await running.flush();
    const corrupt = runPaths(stateDir, '20260104-ddd');
    await mkdir(corrupt.dir, { recursive: true });
    await writeFile(corrupt.journal, 'oops\n{}\n');

    const rows = await listRuns(stateDir);
    await running.close();
    expect(
      rows.map((row) => [
        row.runId,
        row.status,
        row.startedAt,
        row.durationMs,
        row.tokens,
        row.costPico,
        row.unpriced,
      ]),
    ).toEqual([
      [
        '20260103-ccc',
        'interrupted',
        '2026-01-03T00:00:00.000Z',
        21_000,
        12_784,
        41_620_000_000n,
        true,
      ],
      [
        '20260102-bbb',
        'running',
        '2026-01-02T00:00:00.000Z',
        21_000,
        12_784,
        41_620_000_000n,
        true,
      ],
      ['20260101-aaa', 'failed', '2026-01-01T00:00:00.000Z', 71_500, 12_784, 41_620_000_000n, true],
      ['20260104-ddd', 'corrupt', '', 0, 0, 0n, false],
    ]);
    expect(rows[3]?.problem).toMatch(/is corrupt at line 1: not valid JSON/);
  });

  it('lists nothing for a state directory without runs', async () => {
    expect(await listRuns(await temporaryDirectory())).toEqual([]);
  });
});

describe('formatRunsTable', () => {
  const row = (
    runId: string,
    status: RunRow['status'],
    tokens: number,
    costPico: bigint,
    unpriced = false,
  ): RunRow => ({
    runId,
    mission: 'research',
    status,
    startedAt: '2026-03-04T05:06:07.000Z',
    durationMs: 40_100,
    tokens,
    costPico,
    unpriced,
    forkedFrom: null,
  });

  it('adds a column naming the run and event a fork was forked from, when a run is a fork', () => {
    const fork = {
      ...row('r2', 'succeeded', 900, 20_000_000n),
      forkedFrom: { runId: 'r1', seq: 13 },
    };
    expect(formatRunsTable([fork, row('r1', 'failed', 1_200, 40_000_000n)])).toBe(
      [
        'RUN ID  MISSION   STATUS     STARTED              DURATION  TOKENS      COST  FORKED FROM',
        'r2      research  succeeded  2026-03-04 05:06:07     40.1s     900  <$0.0001  r1@13',
        'r1      research  failed     2026-03-04 05:06:07     40.1s   1,200  <$0.0001',
        '',
      ].join('\n'),
    );
  });

  it('aligns the columns, numbers to the right', () => {
    expect(
      formatRunsTable(
        [
          row('20260304-b', 'succeeded', 48_210, 412_100_000_000n),
          row('20260304-a', 'interrupted', 950, 1_000_000_000n),
        ],
        { timeZone: 'UTC' },
      ),
    ).toBe(
      [
        'RUN ID      MISSION   STATUS       STARTED              DURATION  TOKENS     COST',
        '20260304-b  research  succeeded    2026-03-04 05:06:07     40.1s  48,210  $0.4121',
        '20260304-a  research  interrupted  2026-03-04 05:06:07     40.1s     950  $0.0010',
        '',
      ].join('\n'),
    );
  });

  it('marks unpriced costs and explains the mark, and names unreadable journals', () => {
    const broken: RunRow = {
      ...row('x', 'corrupt', 0, 0n),
      mission: '',
      startedAt: '',
      durationMs: 0,
      problem: 'journal x is corrupt at line 1',
    };
    expect(formatRunsTable([row('y', 'failed', 10, 0n, true), broken], { timeZone: 'UTC' })).toBe(
      [
        'RUN ID  MISSION   STATUS   STARTED              DURATION  TOKENS      COST',
        'y       research  failed   2026-03-04 05:06:07     40.1s      10  $0.0000*',
        'x       -         corrupt  -                         0ms       0   $0.0000',
        '* some models have no known price; their turns count as $0',
        'x: journal x is corrupt at line 1',
        '',
      ].join('\n'),
    );
  });

  it('says when there are no runs', () => {
    expect(formatRunsTable([])).toBe('no runs yet\n');
  });
});
