/**
 * Crash and resume with megabyte results through the real CLI: three items whose reader agent
 * answers a 3 MB page each (the commander's `call_agent` result), killed with SIGKILL while it
 * runs, killed again while resuming, then resumed to the end. The journal stores each page
 * once (a blob), so the journal with its blobs stays within 1.5× of the pages' size, and every
 * output and every page arrives exactly once (stored as a large result of its commander).
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blobHash } from '../../src/journal/blob-references.ts';
import { readJournal } from '../../src/journal/reader.ts';
import { summarizeRun } from '../../src/journal/summary.ts';
import type { EventOf, MissionEvent } from '../../src/base/events.ts';
import { ScriptedModelServer } from '../../src/testing/index.ts';
import {
  largeResultProject,
  pageOutput,
  pageText,
  respondToPages,
} from '../actors/resume/large-result-fixture.ts';
import { sortie, type Child } from './cli-resume-harness.ts';
import { temporaryDirectorySync } from '../helpers/temp-dir.ts';

const ITEMS = 3;
const PAGE_BYTES = 3_000_000;

let server: ScriptedModelServer;
let project: string;
/** The CLI process now running, and the request (counted per process) that kills it. */
let running: { child: Child; killAt: number | undefined; requests: number } | undefined;

beforeAll(async () => {
  const respond = respondToPages(PAGE_BYTES);
  server = await ScriptedModelServer.start({
    respond: (request) => {
      if (running !== undefined) {
        running.requests += 1;
        if (running.requests === running.killAt) running.child.process.kill('SIGKILL');
      }
      const turn = respond(request);
      // Each request carries megabytes of conversation: keep none (the count names tool calls).
      const recorded = server.requests.at(-1);
      if (recorded !== undefined) recorded.body = null;
      return turn;
    },
  });
  project = temporaryDirectorySync('crash-large');
  writeFileSync(join(project, 'main.hcl'), largeResultProject(ITEMS));
});

afterAll(async () => {
  await server.close();
});

/** Runs the CLI to its end, or until its `killAt`th model request kills it. */
async function runCli(args: string[], stateDir: string, killAt?: number): Promise<Child> {
  const child = sortie(args, { stateDir, baseUrl: server.baseUrl('anthropic') });
  running = { child, killAt, requests: 0 };
  await child.exited;
  running = undefined;
  return child;
}

function sizeOf(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path).reduce((sum, name) => sum + sizeOf(join(path, name)), 0);
}

function ofType<T extends MissionEvent['type']>(
  events: MissionEvent[],
  type: T,
): Array<Extract<MissionEvent, { type: T }>> {
  return events.filter((event): event is Extract<MissionEvent, { type: T }> => event.type === type);
}

describe('kill -9 with 3 MB agent results, then sortie resume', () => {
  it('keeps the journal within 1.5× of the results and every output and page once', async () => {
    const stateDir = temporaryDirectorySync('crash-large-state');
    // 18 requests in all (6 per item): killed at the 9th, its resume at its 4th.
    const first = await runCli(['run', project], stateDir, 9);
    const runId = await first.runId;
    expect(await first.exited).not.toBe(0);
    await runCli(['resume', runId, project], stateDir, 4);
    const last = await runCli(['resume', runId, project], stateDir);
    expect(await last.exited, last.stderr()).toBe(0);

    const runDir = join(stateDir, 'runs', runId);
    const pages = Array.from({ length: ITEMS }, (_, index) => pageText(index, PAGE_BYTES));
    // Each page is one blob, whichever events carried it and however often it was answered.
    expect(readdirSync(join(runDir, 'blobs')).sort()).toEqual(
      pages.map((page) => `${blobHash(page)}.txt`).sort(),
    );
    const stored = sizeOf(join(runDir, 'journal.jsonl')) + sizeOf(join(runDir, 'blobs'));
    const ratio = stored / (ITEMS * PAGE_BYTES);
    expect(ratio, `journal and blobs ${stored} bytes`).toBeLessThanOrEqual(1.5);

    const { events } = await readJournal(join(runDir, 'journal.jsonl'));
    const summary = summarizeRun(events);
    expect(summary.status).toBe('succeeded');
    const items = ofType(events, 'iteration.succeeded');
    expect(items.map((event) => event.index).sort()).toEqual([0, 1, 2]);
    expect(items.map((event) => event.output)).toEqual(items.map(() => pageOutput(PAGE_BYTES)));
    // Each commander received its page once, stored whole as a large result (the commander's
    // tool_response limit) and summarised: a call the kill interrupted is finished by the
    // resume inside the commander's conversation, with no tool.completed of its own. Compared
    // as booleans: a failure must not print megabytes.
    for (const [index, page] of pages.entries()) {
      const commander = `commander:read[${index}]`;
      const results = ofType(events, 'message.appended')
        .filter((event) => event.conversation === commander)
        .flatMap((event) => event.message.parts)
        .filter((part) => part.type === 'tool_result' && part.name === 'call_agent')
        .map((part) => (part.type === 'tool_result' ? String(part.content) : ''));
      const pagesReceived = results.map((content) => {
        const summary = JSON.parse(content) as { status: string; result_id: string };
        const stored = readFileSync(join(runDir, 'results', `${summary.result_id}.json`), 'utf8');
        return summary.status === 'partial' && JSON.parse(stored) === page;
      });
      expect(pagesReceived, commander).toEqual([true]);
    }
    // The resumes started from what the killed sessions had journaled (a session killed
    // before its first batch was written left nothing, its run.started included).
    const starts = ofType(events, 'run.started');
    expect(starts.length).toBeGreaterThanOrEqual(2);
    expect(starts.map((event) => event.resumed)).toEqual(starts.map((_, index) => index > 0));
    const responsesBefore = (start: EventOf<'run.started'>): number =>
      events.filter((event) => event.type === 'model.response' && event.seq < start.seq).length;
    expect(starts.slice(1).map((start) => start.before?.requests)).toEqual(
      starts.slice(1).map(responsesBefore),
    );
    expect(summary.turns).toBe(ofType(events, 'model.response').length);
  }, 240_000);
});
