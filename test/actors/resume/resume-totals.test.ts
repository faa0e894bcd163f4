/**
 * A resumed run's figures are the whole run's: a run cut after its first task and resumed
 * reports the requests, tokens and dollars the uninterrupted run reports, in the plain log's
 * closing summary, the TUI's final line and `sortie show`; its duration counts the session the
 * crash ended as well as the resumed one.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunOptions, RunResult } from '../../../src/actors/contracts.ts';
import { startRun } from '../../../src/run/start-run.ts';
import { createPlainPrinter } from '../../../src/cli/plain/index.ts';
import { loadProject } from '../../../src/config/index.ts';
import type { Config } from '../../../src/config/config-types.ts';
import { restoreFromJournal } from '../../../src/journal/restore.ts';
import { summarizeRun } from '../../../src/journal/summary.ts';
import type { EventOf, MissionEvent } from '../../../src/base/events.ts';
import { ScriptedModelServer } from '../../../src/testing/index.ts';
import { summaryLine } from '../../../src/tui/index.ts';
import { applyEvents, initialState } from '../../../src/tui/store/index.ts';
import { RESUME_PROJECT, respondToResumable } from './resume-fixture.ts';
import { temporaryDirectory } from '../../helpers/temp-dir.ts';

let server: ScriptedModelServer;
let dir: string;
let config: Config;
let complete: MissionEvent[];
let completeResult: RunResult;

async function run(
  options: Partial<RunOptions> = {},
): Promise<{ result: RunResult; events: MissionEvent[]; plain: string[] }> {
  const events: MissionEvent[] = [];
  const plain: string[] = [];
  const printer = createPlainPrinter({
    write: (text) => plain.push(...text.trimEnd().split('\n')),
    color: false,
    quiet: true,
  });
  const handle = startRun({
    config,
    mission: 'resumable',
    inputs: { topic: 'things' },
    stateDir: join(dir, '.sortie'),
    subscribers: [(event) => events.push(event), (event) => printer.onEvent(event)],
    ...options,
  });
  const result = await handle.done;
  printer.printSummary();
  return { result, events: events.filter((event) => event.type !== 'model.delta'), plain };
}

function costLines(plain: string[]): string[] {
  return plain.slice(plain.indexOf('costs:'));
}

function finishedOf(events: MissionEvent[]): EventOf<'run.finished'> {
  const finished = events.findLast((event) => event.type === 'run.finished');
  if (finished?.type !== 'run.finished') throw new Error('the run did not finish');
  return finished;
}

/**
 * 25 requests: gather's commander 5 and agent 2, 4 per item, report 5, one question fork;
 * 2,410 tokens in and 240 out.
 */
const WHOLE_RUN_COSTS = [
  'costs:',
  '  main.gpt_4o_mini  25 requests  2,650 tokens  $0.0005',
  '  total             25 requests  2,650 tokens  $0.0005',
];

beforeAll(async () => {
  server = await ScriptedModelServer.start({ respond: respondToResumable });
  dir = await temporaryDirectory('resume-totals');
  await writeFile(join(dir, 'main.hcl'), RESUME_PROJECT);
  config = await loadProject(dir, {
    vars: { api_key: 'test-key', base_url: server.baseUrl('openai') },
    env: {},
  });
  const baseline = await run({ runId: 'baseline' });
  expect(costLines(baseline.plain)).toEqual(WHOLE_RUN_COSTS);
  complete = baseline.events;
  completeResult = baseline.result;
});

afterAll(async () => {
  await server.close();
});

describe('a run resumed after its first task', () => {
  it('reports the whole run in the plain summary, the TUI summary, show and its result', async () => {
    const cut = complete.findIndex((event) => event.type === 'task.succeeded') + 1;
    const journal = complete.slice(0, cut);
    const state = restoreFromJournal('baseline', journal);
    // gather: its commander's 5 requests and its agent's 2 (100 in and 10 out each, the
    // agent's answer 50 and 8).
    expect([state.totals.requests, state.totals.usage]).toEqual([
      7,
      { input: 650, output: 68, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
    ]);
    const resumed = await run({ resume: state });
    expect(resumed.result.status).toBe('succeeded');

    expect(costLines(resumed.plain)).toEqual(WHOLE_RUN_COSTS);
    const tui = applyEvents(initialState(), resumed.events);
    expect(summaryLine(tui.header)).toBe(
      'mission:resumable succeeded · 3 tasks · 2,650 tokens · $0.0005',
    );
    expect(summaryLine(tui.header)).toBe(summaryLine(applyEvents(initialState(), complete).header));
    expect(tui.costs.total).toMatchObject({ requests: 25, input: 2_410, output: 240 });

    const show = summarizeRun([...journal, ...resumed.events]);
    // gpt-4o-mini: 2,410 input tokens at $0.15 and 240 output tokens at $0.60 per million.
    expect([show.turns, show.tokens, show.costPico]).toEqual([25, 2_650, 505_500_000n]);
    expect([resumed.result.tokens, resumed.result.costPico]).toEqual([
      completeResult.tokens,
      completeResult.costPico,
    ]);

    // The killed session ran from its run.started to its last journaled event; the resumed
    // run's end adds its own session to that, and show reads the same.
    const killedMs = Date.parse(journal.at(-1)?.time ?? '') - Date.parse(journal[0]?.time ?? '');
    expect(state.totals.durationMs).toBe(killedMs);
    const finished = finishedOf(resumed.events);
    expect(finished.durationMs).toBeGreaterThanOrEqual(killedMs);
    expect(show.durationMs).toBe(finished.durationMs);
    expect(finished.usage).toEqual(finishedOf(complete).usage);
    expect(finished.costPico).toBe(finishedOf(complete).costPico);
  });
});
