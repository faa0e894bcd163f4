/**
 * `sortie fork` through the real CLI against the scripted model server: a finished run is
 * forked at a commander's reply, a tool result and the mission's start; the fork's journal
 * begins with the parent's events up to the point, records its parent, and only what follows
 * the point asks the model again. A fork of a fork, and seqs that are no fork point.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MissionEvent } from '../../src/base/events.ts';
import { ScriptedModelServer } from '../../src/testing/index.ts';
import { journalOf, sortie as runSortie, type Child } from './cli-resume-harness.ts';
import {
  callsPoet,
  FORK_PROJECT,
  respondToPoem,
  seqOf,
  taskSummary,
  withoutRunId,
} from './fork-fixture.ts';

let server: ScriptedModelServer;
let project: string;
let stateDir: string;
let parentId: string;
let parent: MissionEvent[];

function sortie(args: string[], env: Record<string, string> = {}): Child {
  return runSortie(args, { stateDir, baseUrl: server.baseUrl('openai') }, undefined, env);
}

/** Runs `args` to its end (exit 0 expected); the run's id and the actors of its model requests. */
async function runToEnd(args: string[]): Promise<{ runId: string; actors: string[] }> {
  const before = server.requests.length;
  const child = sortie(args);
  const code = await child.exited;
  expect(code, child.stderr()).toBe(0);
  const actors = server.requests.slice(before).map((request) => request.actor ?? '');
  return { runId: await child.runId, actors };
}

beforeAll(async () => {
  server = await ScriptedModelServer.start({ respond: respondToPoem });
  project = mkdtempSync(join(tmpdir(), 'sortie-fork-'));
  writeFileSync(join(project, 'main.hcl'), FORK_PROJECT);
  stateDir = mkdtempSync(join(tmpdir(), 'sortie-fork-state-'));
  const run = await runToEnd(['run', project, '--input', 'subject=ants']);
  parentId = run.runId;
  parent = journalOf(stateDir, parentId);
  expect(taskSummary(parent)).toBe('The poet wrote: A line about ants.');
}, 60_000);

afterAll(async () => {
  await server.close();
  rmSync(project, { recursive: true, force: true });
  rmSync(stateDir, { recursive: true, force: true });
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
