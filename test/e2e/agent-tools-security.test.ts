/**
 * The file-tool security rules through the real CLI: paths leaving a slot, absolute paths
 * and writes to a read-only input are refused, and no error text names a host path.
 */
import { writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  cleanUpAll,
  delegatingTask,
  jsonLines,
  reply,
  ROOT,
  sortie,
  startModelServer,
  writeProject,
} from './agent-tools-harness.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';

afterEach(cleanUpAll);

const HCL = `
agent "prober" {
  model       = MODEL
  personality = "You test boundaries."
}

mission "probe" {
  commander {
    model = MODEL
  }
  agents = [agents.prober]
  memory {
    description = "Notes"
  }
  scratchpad = true
  inputs = {
    report = file("A report", true)
  }
  task "probe" {
    objective = "Probe the slots"
  }
}
`;

const AGENT = 'agent:probe/prober';

const ATTEMPTS = [
  { name: 'file_read', arguments: { slot: 'scratchpad', path: '../journal.jsonl' } },
  { name: 'file_read', arguments: { slot: 'memory', path: '../../../../main.hcl' } },
  { name: 'file_read', arguments: { slot: 'memory', path: '/etc/passwd' } },
  { name: 'file_read', arguments: { slot: 'input.report', path: '../main.hcl' } },
  { name: 'file_list', arguments: { slot: 'scratchpad', path: '..' } },
  { name: 'file_create', arguments: { slot: 'input.report', path: 'x.txt', content: 'x' } },
];

describe('file tools refuse to leave their slots (CLI)', () => {
  it('answers each escape attempt with an error that names no host path', async () => {
    const project = await writeProject(HCL);
    const files = await temporaryDirectory('probe');
    await writeFile(join(files, 'report.txt'), 'quarterly numbers\n');
    const server = await startModelServer(
      delegatingTask(
        'probe',
        'prober',
        [{ match: { actor: AGENT }, toolCalls: ATTEMPTS }, reply(AGENT, 'All refused.')],
        'Probed',
      ),
    );
    const run = await sortie([
      'run',
      project,
      '--json',
      '--input',
      `report=@${join(files, 'report.txt')}`,
      '--var',
      'api_key=test-key',
      '--var',
      `base_url=${server.baseUrl('openai')}`,
      '--state-dir',
      join(files, 'state'),
    ]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    server.assertDone();
    const results = jsonLines(run.stdout)
      .filter((event) => event.type === 'tool.completed' && event.actor === AGENT)
      .map((event) => JSON.parse(String(event.result)) as Record<string, unknown>);
    expect(results).toEqual([
      { status: 'error', error: 'path escapes the slot' },
      { status: 'error', error: 'path escapes the slot' },
      { status: 'error', error: 'absolute paths are not allowed' },
      { status: 'error', error: 'path escapes the slot' },
      { status: 'error', error: 'path escapes the slot' },
      { status: 'error', error: 'slot "input.report" is read-only' },
    ]);
    const text = JSON.stringify(results);
    for (const hostPath of [files, project, ROOT, tmpdir(), homedir()]) {
      expect(text).not.toContain(hostPath);
    }
  }, 60_000);
});
