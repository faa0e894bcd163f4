/**
 * What `sortie resume` and `sortie show` say about a parallel task cancelled mid-way and
 * resumed, through the real CLI: a run of three items is cancelled (SIGINT) while item 2 waits
 * for its model, after items 0 and 1 succeeded, then resumed to its end.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MissionEvent } from '../../src/base/events.ts';
import { summarizeRun } from '../../src/journal/summary.ts';
import { formatDuration } from '../../src/present/numbers.ts';
import { ScriptedModelServer } from '../../src/testing/index.ts';
import { RESUME_PROJECT, respondToResumable } from '../actors/resume/resume-fixture.ts';
import { sortieAsync } from './cli-child.ts';
import { journalOf, journalReaches, sortie } from './cli-resume-harness.ts';
import { temporaryDirectorySync } from '../helpers/temp-dir.ts';

let server: ScriptedModelServer;
let project: string;
let stateDir: string;
/** While true, item 2's commander gets no answer (until the run is cancelled). */
let holdItemTwo = true;
let releaseHeld: () => void = () => undefined;
const held = new Promise<void>((resolve) => (releaseHeld = resolve));

beforeAll(async () => {
  server = await ScriptedModelServer.start({
    respond: (request) => {
      const turn = respondToResumable(request);
      if (turn === undefined) return undefined;
      return holdItemTwo && request.actor === 'commander:each[2]'
        ? { ...turn, heldUntil: held }
        : turn;
    },
  });
  project = temporaryDirectorySync('resume-summary');
  stateDir = temporaryDirectorySync('resume-summary-state');
  writeFileSync(join(project, 'main.hcl'), RESUME_PROJECT);
});

afterAll(async () => {
  releaseHeld();
  await server.close();
});

const target = () => ({ stateDir, baseUrl: server.baseUrl('openai') });
const flags = () => [
  '--state-dir',
  stateDir,
  '--var',
  'api_key=sk-test-resume',
  '--var',
  `base_url=${server.baseUrl('openai')}`,
];

const itemSucceeded = (index: number) => (event: MissionEvent) =>
  event.type === 'iteration.succeeded' && event.index === index;

/** Runs the mission until item 2 waits for its model with items 0 and 1 done, then Ctrl-C. */
async function cancelDuringItemTwo(): Promise<string> {
  const child = sortie(['run', project, '--input', 'topic=things'], target());
  await journalReaches(child, stateDir, itemSucceeded(0));
  await journalReaches(child, stateDir, itemSucceeded(1));
  await journalReaches(
    child,
    stateDir,
    (event) => event.type === 'model.request' && event.actor === 'commander:each[2]',
  );
  child.process.kill('SIGINT');
  expect(await child.exited).toBe(130);
  holdItemTwo = false;
  return child.runId;
}

describe('a parallel task cancelled during its last item, then resumed', () => {
  let runId: string;
  let resumed: { status: number | null; stdout: string; stderr: string };

  beforeAll(async () => {
    runId = await cancelDuringItemTwo();
    resumed = await sortieAsync(['resume', runId, project, ...flags()]);
  }, 60_000);

  it("the resume's summary counts and shows the items finished before the cancel", () => {
    expect(resumed.status, resumed.stderr).toBe(0);
    const summary = resumed.stdout.slice(resumed.stdout.indexOf('tasks:\n'));
    const rows = summary.slice(0, summary.indexOf('costs:')).split('\n');
    expect(rows).toEqual([
      'tasks:',
      '  gather  succeeded  Counted 3 things',
      '  each    succeeded · items 3 succeeded, 0 failed  iterated over 3 items of dataset things: 3 succeeded, 0 failed',
      '  report  succeeded  Reported',
      'outputs:',
      '  gather  {"count":3}',
      '  each    {"0":{"text":"thing 0"},"1":{"text":"thing 1"},"2":{"text":"thing 2"}}',
      '',
    ]);
  });

  it('sortie show lists no error under the task that succeeded after its cancel', async () => {
    const shown = await sortieAsync(['show', runId, '--state-dir', stateDir]);
    expect(shown.status, shown.stderr).toBe(0);
    const each = shown.stdout.slice(shown.stdout.indexOf('  each '));
    const block = each.slice(0, each.indexOf('\n  report '));
    expect(block).not.toContain('error');
    expect(block).toContain('    [0] ');
  });

  it("sortie show gives the resumed task's time over both sessions", async () => {
    const journal = journalOf(stateDir, runId);
    const times = (type: string) =>
      journal
        .filter((event) => event.type === type && 'task' in event && event.task === 'each')
        .map((event) => event);
    const [firstStart, secondStart] = times('task.started');
    const [cancelled] = times('task.cancelled');
    const [succeeded] = times('task.succeeded');
    const firstPart = Date.parse(cancelled!.time) - Date.parse(firstStart!.time);
    const lastPart = (succeeded as { durationMs: number }).durationMs;
    expect(secondStart).toBeDefined();
    const each = summarizeRun(journal).tasks.find((task) => task.name === 'each');
    expect(each?.durationMs).toBe(firstPart + lastPart);
    const shown = await sortieAsync(['show', runId, '--state-dir', stateDir]);
    expect(shown.stdout).toMatch(
      new RegExp(
        `\\n  each +succeeded +${formatDuration(firstPart + lastPart).replace('.', '\\.')}  `,
      ),
    );
  });
});
