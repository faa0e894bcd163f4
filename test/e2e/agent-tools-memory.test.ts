/**
 * Issue 5, through the real CLI: the mission memory persists between two runs sharing a
 * state directory, while each run starts with an empty scratchpad of its own.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  cleanUpAll,
  delegatingTask,
  completedInCallOrder,
  jsonLines,
  notesProject,
  SCRIBE as AGENT,
  reply,
  sortie,
  startModelServer,
  writeProject,
} from './agent-tools-harness.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';

afterEach(cleanUpAll);

const HCL = notesProject('  scratchpad = true\n');

/** Runs the mission once against a fresh script; returns the results of the agent's tools. */
async function runOnce(
  project: string,
  stateDir: string,
  agentCalls: Array<{ name: string; arguments: Record<string, unknown> }>,
): Promise<Array<{ tool: unknown; result: unknown }>> {
  const server = await startModelServer(
    delegatingTask(
      'note',
      'scribe',
      [{ match: { actor: AGENT }, toolCalls: agentCalls }, reply(AGENT, 'Done with the notes.')],
      'Noted',
    ),
  );
  const run = await sortie([
    'run',
    project,
    '--json',
    '--var',
    'api_key=test-key',
    '--var',
    `base_url=${server.baseUrl('openai')}`,
    '--state-dir',
    stateDir,
  ]);
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  server.assertDone();
  return completedInCallOrder(jsonLines(run.stdout))
    .filter((event) => event.actor === AGENT)
    .map((event) => ({ tool: event.tool, result: event.result }));
}

describe('memory and scratchpad across runs (CLI)', () => {
  it('keeps notes.md in memory for the next run, but not in the scratchpad', async () => {
    const project = await writeProject(HCL);
    const stateDir = join(await temporaryDirectory('state'), 'state');
    const note = '# Lessons\n\nThe API pages at 100 items.\n';
    const first = await runOnce(project, stateDir, [
      { name: 'file_create', arguments: { slot: 'memory', path: 'notes.md', content: note } },
      { name: 'file_create', arguments: { slot: 'scratchpad', path: 'notes.md', content: note } },
    ]);
    const created = JSON.stringify({ status: 'ok', bytes: Buffer.byteLength(note) });
    expect(first).toEqual([
      { tool: 'file_create', result: created },
      { tool: 'file_create', result: created },
    ]);

    const second = await runOnce(project, stateDir, [
      { name: 'file_read', arguments: { slot: 'memory', path: 'notes.md' } },
      { name: 'file_list', arguments: { slot: 'scratchpad' } },
      { name: 'file_read', arguments: { slot: 'scratchpad', path: 'notes.md' } },
    ]);
    expect(second.map((entry) => entry.tool)).toEqual(['file_read', 'file_list', 'file_read']);
    expect(second[0]?.result).toBe(note);
    expect(second[1]?.result).toBe('(no entries)');
    expect(JSON.parse(String(second[2]?.result))).toEqual({
      status: 'error',
      error: 'file "notes.md" not found in slot "scratchpad"',
    });
  }, 60_000);
});
