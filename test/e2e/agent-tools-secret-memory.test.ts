/**
 * Issue 25, item 1, through the real CLI: a file an agent writes into the persistent memory
 * slot with `${secrets.token}` in it keeps the placeholder, never the value, so a later run
 * with another value reads back no old value (not to the model, not into its journal).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  cleanUpAll,
  delegatingTask,
  filesBelow,
  jsonLines,
  notesProject,
  SCRIBE as AGENT,
  leakForms,
  reply,
  sortie,
  startModelServer,
  writeProject,
} from './agent-tools-harness.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';

afterEach(cleanUpAll);

const HCL = notesProject(
  '  inputs = {\n    token = string("Account token", { protected = true })\n  }\n',
);
const FIRST_TOKEN = 'tok-first-1a2b3c4d';
const SECOND_TOKEN = 'tok-second-9z8y7x';

interface Run {
  results: unknown[];
  modelSaw: string;
}

async function runOnce(
  project: string,
  stateDir: string,
  token: string,
  agentCalls: Array<{ name: string; arguments: Record<string, unknown> }>,
): Promise<Run> {
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
    '--input',
    `token=${token}`,
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
  const results = jsonLines(run.stdout)
    .filter((event) => event.type === 'tool.completed' && event.actor === AGENT)
    .map((event) => event.result);
  return { results, modelSaw: JSON.stringify(server.requests.map((request) => request.body)) };
}

describe('a protected value never outlives its run in a slot (CLI)', () => {
  it('writes the placeholder, not the value, and a later run reads no old value', async () => {
    const project = await writeProject(HCL);
    const stateDir = join(await temporaryDirectory('state'), 'state');
    const content = 'token: ${secrets.token}\n';
    const first = await runOnce(project, stateDir, FIRST_TOKEN, [
      { name: 'file_create', arguments: { slot: 'memory', path: 'notes.md', content } },
      {
        name: 'file_create',
        arguments: {
          slot: 'memory',
          path: 'notes.md',
          content: 'again ${secrets.token}\n',
          append: true,
        },
      },
    ]);
    expect(first.results).toEqual([
      JSON.stringify({ status: 'ok', bytes: Buffer.byteLength(content) }),
      JSON.stringify({ status: 'ok', bytes: Buffer.byteLength('again ${secrets.token}\n') }),
    ]);

    const second = await runOnce(project, stateDir, SECOND_TOKEN, [
      { name: 'file_read', arguments: { slot: 'memory', path: 'notes.md' } },
    ]);
    expect(second.results).toEqual(['token: ${secrets.token}\nagain ${secrets.token}\n']);

    const written = await filesBelow(stateDir);
    const memoryFiles = written.filter((file) => file.path.endsWith('notes.md'));
    expect(memoryFiles.map((file) => file.text)).toEqual([
      'token: ${secrets.token}\nagain ${secrets.token}\n',
    ]);
    const seen = [
      { path: 'model, run 2', text: second.modelSaw },
      { path: 'model, run 1', text: first.modelSaw },
      ...written,
    ];
    for (const file of seen) {
      for (const form of leakForms(FIRST_TOKEN)) {
        expect({ path: file.path, leaked: file.text.includes(form) }).toEqual({
          path: file.path,
          leaked: false,
        });
      }
    }
    expect(await readFile(memoryFiles[0]?.path ?? '', 'utf8')).not.toContain(SECOND_TOKEN);
  }, 60_000);
});
