/**
 * `sortie fork` through the real CLI against the scripted model server: a finished run is
 * forked at a commander's reply, a tool result and the mission's start; the fork's journal
 * begins with the parent's events up to the point, records its parent, and only what follows
 * the point asks the model again. A fork of a fork, and seqs that are no fork point.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MissionEvent } from '../../src/base/events.ts';
import { ScriptedModelServer } from '../../src/testing/index.ts';
import { sortieAsync } from './cli-child.ts';
import { journalOf, sortie as runSortie, type Child } from './cli-resume-harness.ts';
import {
  callsPoet,
  FORK_PROJECT,
  respondToPoem,
  seqOf,
  taskSummary,
  withoutRunId,
  REPLACE_SCRIPT,
} from './fork-fixture.ts';
import { temporaryDirectorySync } from '../helpers/temp-dir.ts';

let server: ScriptedModelServer;
let project: string;
let stateDir: string;
let parentId: string;
let parent: MissionEvent[];
/** An editor for EDITOR: `node replace.mjs FROM TO FILE` replaces FROM by TO in FILE. */
let replacer: string;

function sortie(args: string[], env: Record<string, string> = {}): Child {
  return runSortie(args, { stateDir, baseUrl: server.baseUrl('openai') }, undefined, env);
}

/** Runs `args` to its end (exit 0 expected); the run's id and the actors of its model requests. */
async function runToEnd(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ runId: string; actors: string[] }> {
  const before = server.requests.length;
  const child = sortie(args, env);
  const code = await child.exited;
  expect(code, child.stderr()).toBe(0);
  const actors = server.requests.slice(before).map((request) => request.actor ?? '');
  return { runId: await child.runId, actors };
}

beforeAll(async () => {
  server = await ScriptedModelServer.start({ respond: respondToPoem });
  project = temporaryDirectorySync('fork');
  writeFileSync(join(project, 'main.hcl'), FORK_PROJECT);
  stateDir = temporaryDirectorySync('fork-state');
  replacer = join(project, 'replace.mjs');
  writeFileSync(replacer, REPLACE_SCRIPT);
  const run = await runToEnd(['run', project, '--input', 'subject=ants']);
  parentId = run.runId;
  parent = journalOf(stateDir, parentId);
  expect(taskSummary(parent)).toBe('The poet wrote: A line about ants.');
}, 60_000);

afterAll(async () => {
  await server.close();
});

describe('sortie fork', () => {
  it('at a commander reply keeps every event before it and asks only what follows', async () => {
    const at = seqOf(parent, callsPoet);
    const fork = await runToEnd(['fork', parentId, project, '--at', String(at)]);
    // The commander's first two turns are not asked again: its reply is kept.
    expect(fork.actors).toEqual(['agent:write/poet', 'commander:write', 'commander:write']);
    const journal = journalOf(stateDir, fork.runId);
    expect(fork.runId).not.toBe(parentId);
    expect(withoutRunId(journal.filter((event) => event.seq < at))).toEqual(
      withoutRunId(parent.filter((event) => event.seq < at)),
    );
    expect(journal.every((event) => event.runId === fork.runId)).toBe(true);
    const forked = journal.find((event) => event.seq === at);
    expect(forked).toMatchObject({
      type: 'run.forked',
      actor: 'run',
      parentRunId: parentId,
      atSeq: at,
      at: 'model.response',
      edited: false,
      response: { actor: 'commander:write' },
    });
    // The kept reply answers the commander's request again, as it was.
    const reply = journal.find((event) => event.seq > at && event.type === 'model.response');
    const original = parent.find((event) => event.seq === at);
    expect(reply?.type === 'model.response' && reply.message).toEqual(
      original?.type === 'model.response' && original.message,
    );
    expect(taskSummary(journal)).toBe('The poet wrote: A line about ants.');
    expect(journal.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'succeeded' });
    // Nothing was said differently (tool call ids aside): the diff says so in one line.
    const diff = await sortieAsync(['diff', fork.runId, parentId, '--state-dir', stateDir]);
    expect(diff.stdout).toBe(
      [
        `A ${fork.runId} · forked from B at seq ${at}`,
        `B ${parentId}`,
        'same in both: commander:write (9 messages), agent:write/poet (2 messages)',
        'no difference',
        '',
      ].join('\n'),
    );
  }, 60_000);

  it("at a tool result keeps it and asks the commander's next turns only", async () => {
    const at = seqOf(
      parent,
      (event) => event.type === 'tool.completed' && event.tool === 'call_agent',
    );
    const fork = await runToEnd(['fork', parentId, project, '--at', String(at)]);
    expect(fork.actors).toEqual(['commander:write', 'commander:write']);
    const journal = journalOf(stateDir, fork.runId);
    expect(withoutRunId(journal.filter((event) => event.seq <= at))).toEqual(
      withoutRunId(parent.filter((event) => event.seq <= at)),
    );
    expect(journal.find((event) => event.seq === at + 1)).toMatchObject({
      type: 'run.forked',
      at: 'tool.completed',
      atSeq: at,
    });
    expect(taskSummary(journal)).toBe('The poet wrote: A line about ants.');
  }, 60_000);

  it("at the mission's start runs the whole mission again, and a fork forks", async () => {
    const at = seqOf(parent, (event) => event.type === 'mission.started');
    const first = await runToEnd(['fork', parentId, project, '--at', String(at)]);
    expect(first.actors).toHaveLength(5);
    const firstJournal = journalOf(stateDir, first.runId);
    // Fork the fork at its own commander reply.
    const again = seqOf(firstJournal, callsPoet);
    const second = await runToEnd(['fork', first.runId, project, '--at', String(again)]);
    expect(second.actors).toEqual(['agent:write/poet', 'commander:write', 'commander:write']);
    const journal = journalOf(stateDir, second.runId);
    const forks = journal.filter((event) => event.type === 'run.forked');
    // Its parent's own record is kept in the copy; the last names the fork's parent.
    expect(forks.map((event) => event.type === 'run.forked' && event.parentRunId)).toEqual([
      parentId,
      first.runId,
    ]);
    expect(taskSummary(journal)).toBe('The poet wrote: A line about ants.');
  }, 60_000);

  it("sortie show lists each actor's fork points by seq", async () => {
    const seqs = (accepts: (event: MissionEvent) => boolean): string =>
      parent
        .filter(accepts)
        .map((event) => event.seq)
        .join(' ');
    const of = (actor: string, type: MissionEvent['type']) => (event: MissionEvent) =>
      event.actor === actor && event.type === type;
    const show = await sortieAsync(['show', parentId, '--state-dir', stateDir]);
    const text = show.stdout;
    expect(text.slice(text.indexOf('fork points'))).toBe(
      [
        `fork points (sortie fork ${parentId} --at SEQ)`,
        `  mission:poem      start ${seqs(of('mission:poem', 'mission.started'))}`,
        `  commander:write   replies ${seqs(of('commander:write', 'model.response'))} · results ${seqs(of('commander:write', 'tool.completed'))}`,
        `  agent:write/poet  reply ${seqs(of('agent:write/poet', 'model.response'))}`,
        '',
      ].join('\n'),
    );
  }, 60_000);

  it('refuses an --at that is no seq, saying where seqs are', async () => {
    const child = sortie(['fork', parentId, project, '--at', 'abc']);
    expect(await child.exited).toBe(2);
    expect(child.stderr()).toBe(
      'error: --at abc: expected the seq of an event (a whole number from 1)\n' +
        "hint: an event's seq is in --json output and in the run's journal.jsonl; a seq that is no fork point is answered with the nearest ones\n",
    );
  }, 60_000);

  it('refuses a fork whose project cannot run (a variable without a value), and forks nothing', async () => {
    const at = seqOf(parent, callsPoet);
    const runs = readdirSync(join(stateDir, 'runs'));
    // No --var api_key: the project's model has no key, which is found before the fork is made.
    const child = await sortieAsync(
      ['fork', parentId, project, '--at', String(at), '--state-dir', stateDir, '--plain'],
      { SORTIE_VAR_base_url: server.baseUrl('openai') },
    );
    expect([child.status, child.stderr.split('\n')[0]]).toEqual([
      2,
      'error: variable "api_key" has no value',
    ]);
    expect(readdirSync(join(stateDir, 'runs'))).toEqual(runs);
  }, 60_000);

  it('refuses a seq that is no fork point, naming the nearest ones', async () => {
    const called = seqOf(parent, (event) => event.type === 'tool.called');
    const child = sortie(['fork', parentId, project, '--at', String(called)]);
    expect(await child.exited).toBe(2);
    const points = parent
      .filter(
        (event) =>
          event.type === 'mission.started' ||
          ((event.type === 'model.response' || event.type === 'tool.completed') &&
            event.actor === 'commander:write'),
      )
      .map((event) => `${event.seq} (${event.type} of ${event.actor})`);
    const before = points.filter((text) => Number.parseInt(text) < called).slice(-2);
    const after = points.filter((text) => Number.parseInt(text) > called).slice(0, 2);
    expect(child.stderr()).toBe(
      `error: event ${called} of run ${parentId} is tool.called (commander:write); a fork starts at a model response, a tool result or a mission's start\n` +
        `hint: the nearest are ${[...before, ...after].join(', ')}\n`,
    );
  }, 60_000);
});

describe('sortie fork --edit (EDITOR set to a script)', () => {
  /** EDITOR replacing `from` by `to` in the document it is given. */
  const editor = (from: string, to: string): Record<string, string> => ({
    EDITOR: `${process.execPath} ${replacer} '${from}' '${to}'`,
  });

  it('at a commander reply with an edited tool call changes what follows and nothing before', async () => {
    const at = seqOf(parent, callsPoet);
    const before = server.requests.length;
    const fork = await runToEnd(
      ['fork', parentId, project, '--at', String(at), '--edit'],
      editor('ants', 'bees'),
    );
    expect(fork.actors).toEqual(['agent:write/poet', 'commander:write', 'commander:write']);
    // The poet got the edited task.
    expect(JSON.stringify(server.requests[before]?.body)).toContain('Write a line about bees');
    const journal = journalOf(stateDir, fork.runId);
    expect(withoutRunId(journal.filter((event) => event.seq < at))).toEqual(
      withoutRunId(parent.filter((event) => event.seq < at)),
    );
    expect(journal.find((event) => event.seq === at)).toMatchObject({
      type: 'run.forked',
      edited: true,
    });
    const called = journal.find((event) => event.type === 'tool.called' && event.seq > at);
    expect(called).toMatchObject({
      tool: 'call_agent',
      arguments: JSON.stringify({ name: 'poet', task: 'Write a line about bees' }),
    });
    expect(taskSummary(journal)).toBe('The poet wrote: A line about bees.');

    // The diff shows where the conversations part and what follows, in words.
    const diff = await sortieAsync(['diff', parentId, fork.runId, '--state-dir', stateDir]);
    expect(diff.stderr).toBe('');
    expect(diff.stdout).toBe(
      [
        `A ${parentId}`,
        `B ${fork.runId} · forked from A at seq ${at}`,
        'commander:write: parts at message 4 (A 9 messages, B 9)',
        '  4 A assistant → call_agent {"name":"poet","task":"Write a line about ants"}',
        '    B assistant → call_agent {"name":"poet","task":"Write a line about bees"}',
        '  5 A user ← call_agent {"status":"ok","agent":"poet","result":"A line about ants."}',
        '    B user ← call_agent {"status":"ok","agent":"poet","result":"A line about bees."}',
        '  6–7 same',
        '  8 A assistant → task_complete {"summary":"The poet wrote: A line about ants."}',
        '    B assistant → task_complete {"summary":"The poet wrote: A line about bees."}',
        '  9 same',
        'agent:write/poet: parts at message 1 (A 2 messages, B 2)',
        '  1 A user "Write a line about ants"',
        '    B user "Write a line about bees"',
        '  2 A assistant "A line about ants."',
        '    B assistant "A line about bees."',
        'tasks',
        '  write  A succeeded: The poet wrote: A line about ants.',
        '         B succeeded: The poet wrote: A line about bees.',
        '',
      ].join('\n'),
    );

    // Fork the fork at the poet's result, edited: the commander completes with the edit.
    const result = seqOf(
      journal,
      (event) => event.type === 'tool.completed' && event.tool === 'call_agent',
    );
    const again = await runToEnd(
      ['fork', fork.runId, project, '--at', String(result), '--edit'],
      editor('bees.', 'owls.'),
    );
    expect(again.actors).toEqual(['commander:write', 'commander:write']);
    const second = journalOf(stateDir, again.runId);
    expect(second.find((event) => event.seq === result)).toMatchObject({
      type: 'tool.completed',
      result: JSON.stringify({ status: 'ok', agent: 'poet', result: 'A line about owls.' }),
    });
    expect(taskSummary(second)).toBe('The poet wrote: A line about owls.');

    // sortie runs shows each fork's parent and fork point; the first run has none.
    const runs = (await sortieAsync(['runs', '--state-dir', stateDir])).stdout.split('\n');
    const rowOf = (runId: string): string => runs.find((line) => line.startsWith(runId)) ?? '';
    expect(runs[0]).toMatch(
      /^RUN ID +MISSION +STATUS +STARTED +DURATION +TOKENS +COST +FORKED FROM$/,
    );
    expect(rowOf(fork.runId)).toMatch(new RegExp(` poem +succeeded .* ${parentId}@${at}$`));
    expect(rowOf(again.runId)).toMatch(new RegExp(` poem +succeeded .* ${fork.runId}@${result}$`));
    expect(rowOf(parentId)).toMatch(/ poem +succeeded .* \$\d\.\d{4}$/);
  }, 90_000);

  it('refuses an edit that is not a well-formed reply, and forks nothing', async () => {
    const at = seqOf(parent, callsPoet);
    const runs = readdirSync(join(stateDir, 'runs')).length;
    const child = sortie(
      ['fork', parentId, project, '--at', String(at), '--edit'],
      editor('"arguments": {', '"arguments": "text", "was": {'),
    );
    expect(await child.exited).toBe(2);
    expect(child.stderr()).toBe(
      'error: the edited model.response is invalid: /parts/0/arguments: must be object\n' +
        'hint: nothing was forked; run the fork again and fix the edit\n',
    );
    expect(readdirSync(join(stateDir, 'runs'))).toHaveLength(runs);
  }, 60_000);
});
