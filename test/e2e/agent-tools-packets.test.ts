/**
 * Packets through the real CLI and the scripted model server: the agent of a mission with a
 * packet (and no memory or scratchpad) reads it with the file tools, its writes and a binary
 * file are refused; and after a SIGKILL in the middle of the reading, the resumed agent still
 * reads the packet.
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { summarizeRun } from '../../src/journal/summary.ts';
import {
  call,
  cleanUpAll,
  delegatingTask,
  errorText,
  jsonLines,
  reply,
  sortie,
  startModelServer,
  writeProject,
} from './agent-tools-harness.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';
import { journalOf, killAtModelRequest, resumeToEnd } from './cli-resume-harness.ts';

afterEach(cleanUpAll);

const HCL = `
packet "playbooks" {
  path        = "playbooks"
  description = "How we handle incidents"
}

agent "responder" {
  model       = MODEL
  personality = "You handle incidents."
}

mission "incident" {
  commander {
    model = MODEL
  }
  agents  = [agents.responder]
  packets = [packets.playbooks]
  task "handle" {
    objective = "Handle the outage"
  }
}
`;

const AGENT = 'agent:handle/responder';
const OUTAGE = '# Outage\nPage the on-call engineer first.\n';
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const READ_OUTAGE = { slot: 'packet.playbooks', path: 'outage.md' };

async function packetProject(): Promise<string> {
  const project = await writeProject(HCL);
  await mkdir(join(project, 'playbooks'));
  await writeFile(join(project, 'playbooks', 'outage.md'), OUTAGE);
  await writeFile(join(project, 'playbooks', 'flow.png'), PNG);
  // Configuration inside a packet folder is reference data, not part of the project.
  await writeFile(join(project, 'playbooks', 'example.hcl'), 'agent "broken" {');
  return project;
}

describe('packets (CLI)', () => {
  it('reads the packet; writes and binary files are refused', async () => {
    const project = await packetProject();
    const server = await startModelServer(
      delegatingTask(
        'handle',
        'responder',
        [
          {
            match: { actor: AGENT },
            toolCalls: [
              { name: 'file_read', arguments: READ_OUTAGE },
              {
                name: 'file_create',
                arguments: { slot: 'packet.playbooks', path: 'notes.md', content: 'x' },
              },
              { name: 'file_delete', arguments: READ_OUTAGE },
              { name: 'file_read', arguments: { slot: 'packet.playbooks', path: 'flow.png' } },
              { name: 'file_grep', arguments: { slot: 'packet.playbooks', pattern: 'on-call' } },
            ],
          },
          reply(AGENT, 'Paged the on-call engineer.'),
        ],
        'Handled',
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
      join(await temporaryDirectory('state'), 'state'),
    ]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    server.assertDone();
    const results = jsonLines(run.stdout)
      .filter((event) => event.type === 'tool.completed' && event.actor === AGENT)
      .map((event) => event.result);
    const readOnly =
      'slot "packet.playbooks" is read-only: a packet holds reference files that cannot be changed';
    expect(results).toEqual([
      OUTAGE,
      errorText(readOnly),
      errorText(readOnly),
      errorText('file "flow.png" is binary: slot "packet.playbooks" holds text files only'),
      'outage.md:2: Page the on-call engineer first.\n(1 match)',
    ]);
    expect((await readdir(join(project, 'playbooks'))).sort()).toEqual([
      'example.hcl',
      'flow.png',
      'outage.md',
    ]);
    const system = (
      server.requests.find((request) => request.actor === AGENT)?.body as {
        instructions: string;
      }
    ).instructions;
    expect(system).toContain(
      '\n- packet.playbooks (read-only, text files): How we handle incidents',
    );
  }, 60_000);

  it('resumed after a SIGKILL in the middle of the reading, the agent still reads the packet', async () => {
    const project = await packetProject();
    const stateDir = join(await temporaryDirectory('state'), 'state');
    const commander = 'commander:handle';
    const first = await startModelServer([
      call(commander, 'set_subtasks', { subtasks: ['Handle it'] }),
      call(commander, 'call_agent', { name: 'responder', task: 'handle the outage' }),
      call(AGENT, 'file_read', READ_OUTAGE),
      // Never answered: the CLI is killed while it waits for this reply.
      { match: { actor: AGENT }, text: 'never sent', delayMs: 600_000 },
    ]);
    const runId = await killAtModelRequest(
      project,
      { stateDir, baseUrl: first.baseUrl('openai') },
      { actor: AGENT, turn: 2 },
    );

    const second = await startModelServer([
      call(AGENT, 'file_grep', { slot: 'packet.playbooks', pattern: 'engineer' }),
      reply(AGENT, 'Paged the on-call engineer.'),
      call(commander, 'complete_subtask'),
      call(commander, 'task_complete', { summary: 'Handled' }),
    ]);
    await resumeToEnd(runId, project, { stateDir, baseUrl: second.baseUrl('openai') });
    second.assertDone();
    const journal = journalOf(stateDir, runId);
    const results = journal.flatMap((event) =>
      event.type === 'tool.completed' && event.actor === AGENT ? [event.result] : [],
    );
    expect(results).toEqual([OUTAGE, 'outage.md:2: Page the on-call engineer first.\n(1 match)']);
    expect(summarizeRun(journal).status).toBe('succeeded');
  }, 60_000);
});
