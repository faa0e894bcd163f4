/**
 * Issue 7's replay tests through the real CLI: a multi-task mission recorded with `--record`
 * against the scripted model server, then run again with `--replay-model` and no server at
 * all — same outputs, same events; and the same cassette after one objective of the HCL was
 * edited — the run fails with the readable diff.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cleanUpAll,
  sortie,
  startModelServer,
  writeProject,
  type CliResult,
} from './agent-tools-harness.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';
import {
  DECIDE_OBJECTIVE,
  SURVEY_HCL,
  SURVEY_OUTPUTS,
  byActor,
  comparable,
  isItemActor,
  journals,
  surveyTurns,
  type JournalEvent,
} from './replay-harness.ts';

let project = '';
let cassette = '';
let stateDir = '';
let recorded: CliResult;
let replayed: CliResult;
let recordedEvents: JournalEvent[] = [];
let replayedEvents: JournalEvent[] = [];

beforeAll(async () => {
  project = await writeProject(SURVEY_HCL);
  const directory = await temporaryDirectory('replay-equivalence');
  cassette = join(directory, 'cassette.jsonl');
  stateDir = join(directory, 'state');
  const server = await startModelServer(surveyTurns());
  recorded = await sortie([
    'run',
    project,
    '--var',
    'api_key=sk-test-replay',
    '--var',
    `base_url=${server.baseUrl('openai')}`,
    '--record',
    cassette,
    '--state-dir',
    stateDir,
    '--quiet',
  ]);
  server.assertDone();
  // No server from here on: a request that reached the network would fail the run.
  await server.close();
  replayed = await sortie([
    'run',
    project,
    '--replay-model',
    cassette,
    '--state-dir',
    stateDir,
    '--quiet',
  ]);
  [recordedEvents = [], replayedEvents = []] = await journals(stateDir);
}, 120_000);

afterAll(cleanUpAll);

describe('a recorded multi-task run replayed with --replay-model (CLI)', () => {
  it('records 33 turns and replays with no key and no server, exit 0 both times', async () => {
    expect(recorded.stderr).toBe('');
    expect(recorded.status).toBe(0);
    expect(replayed.stderr).toBe('');
    expect(replayed.status).toBe(0);
    const lines = (await readFile(cassette, 'utf8')).trimEnd().split('\n');
    expect(lines).toHaveLength(1 + surveyTurns().length);
  });

  it('prints the same task summaries, outputs and costs', () => {
    expect(replayed.stdout).toBe(recorded.stdout);
    expect(recorded.stdout.split('\n').slice(0, 9)).toEqual([
      'tasks:',
      '  gather     succeeded  Two facts found',
      '  visit      succeeded · items 3 succeeded, 0 failed  iterated over 3 items of dataset places: 3 succeeded, 0 failed',
      '  decide     succeeded  Every place has a note',
      '  follow_up  skipped  not activated',
      '  publish    succeeded  Published: Lisbon 2 m, Porto 3 m, Faro 4 m.',
      'outputs:',
      `  gather     ${JSON.stringify(SURVEY_OUTPUTS.gather)}`,
      `  visit      ${JSON.stringify({ ...SURVEY_OUTPUTS.visit })}`,
    ]);
  });

  it('journals the same task outputs, routes and costs', () => {
    const outcome = (events: JournalEvent[]) => ({
      tasks: events
        .filter((event) => event.type === 'task.succeeded')
        .map((event) => [event.task, event.output, event.route]),
      items: events
        .filter((event) => event.type === 'iteration.succeeded')
        .map((event) => [event.index, event.output])
        .sort((left, right) => Number(left[0]) - Number(right[0])),
      finished: comparable(events.at(-1) ?? { type: '', actor: '' }),
    });
    expect(outcome(replayedEvents)).toEqual(outcome(recordedEvents));
    const { tasks, items, finished } = outcome(recordedEvents);
    expect(tasks).toEqual([
      ['gather', SURVEY_OUTPUTS.gather, null],
      ['visit', null, null],
      ['decide', null, 'publish'],
      ['publish', null, null],
    ]);
    expect(items).toEqual(SURVEY_OUTPUTS.visit.map((output, index) => [index, output]));
    expect(finished).toMatchObject({ type: 'run.finished', outcome: 'succeeded', exitCode: 0 });
    expect(BigInt(String(finished.costPico))).toBeGreaterThan(0n);
  });

  it("replays every actor's event sequence: types, payloads and messages", () => {
    // The three items run in parallel and may interleave differently: each actor's own
    // sequence is compared, then the order of everything outside the items.
    const recordedActors = byActor(recordedEvents);
    expect([...byActor(replayedEvents).keys()].sort()).toEqual([...recordedActors.keys()].sort());
    for (const [actor, events] of byActor(replayedEvents)) {
      expect({ actor, events }).toEqual({ actor, events: recordedActors.get(actor) });
    }
    const outsideItems = (events: JournalEvent[]) =>
      events.filter((event) => !isItemActor(event.actor)).map(comparable);
    expect(outsideItems(replayedEvents)).toEqual(outsideItems(recordedEvents));
    expect(replayedEvents).toHaveLength(recordedEvents.length);
    expect(recordedActors.get('agent:visit[2]/scout')?.length).toBeGreaterThan(0);
  });
});

describe('an edited objective replayed against the old cassette (CLI)', () => {
  it('fails the edited task (exit 1) with the readable diff; earlier tasks still replay', async () => {
    const hcl = join(project, 'main.hcl');
    const original = await readFile(hcl, 'utf8');
    await writeFile(
      hcl,
      original.replace(DECIDE_OBJECTIVE, 'Decide whether the notes are good enough'),
    );
    const edited = await sortie([
      'run',
      project,
      '--replay-model',
      cassette,
      '--state-dir',
      stateDir,
      '--quiet',
    ]);
    await writeFile(hcl, original);
    // A run that did not succeed ends by saying how to continue it.
    expect(edited.stderr).toMatch(
      /^run (\S+) failed · \$\d+\.\d{4} · journal \S+\/\1\/journal\.jsonl\ncontinue it with: sortie resume \1 \S+ --state-dir \S+ --replay-model \S+ --quiet\n$/,
    );
    expect(edited.status).toBe(1);
    expect(edited.stdout.split('\n').slice(0, 17)).toEqual([
      'tasks:',
      '  gather     succeeded  Two facts found',
      '  visit      succeeded · items 3 succeeded, 0 failed  iterated over 3 items of dataset places: 3 succeeded, 0 failed',
      '  decide     failed  model request of commander:decide (turn 1) differs from the cassette in messages:',
      '      --- cassette',
      '      +++ this run',
      '      @@ line 5 @@',
      '          {',
      '            "parts": [',
      '              {',
      '      -         "text": "Decide whether the notes are enough to publish",',
      '      +         "text": "Decide whether the notes are good enough",',
      '                "type": "text"',
      '              }',
      '            ],',
      '  publish    skipped  not activated',
      '  follow_up  skipped  not activated',
    ]);
  }, 60_000);
});
