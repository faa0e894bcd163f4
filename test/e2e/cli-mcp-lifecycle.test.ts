/**
 * MCP servers over a run's life, through the real CLI: Ctrl-C in the middle of a tool call
 * leaves no server process; a run killed with SIGKILL mid-call resumes and its MCP tools work
 * again; a published server package (the filesystem server from the npm registry, a dev
 * dependency) is used as a user would, spawned with `command = "node"`.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, watch, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RespondRequest } from '../../src/testing/server.ts';
import { ScriptedModelServer, type ScriptTurn } from '../../src/testing/index.ts';
import { callsSoFar } from '../actors/resume/resume-fixture.ts';
import { CLI_ENV, ROOT } from './cli-child.ts';
import {
  call,
  cleanUpAll,
  delegatingTask,
  jsonLines,
  reply,
  runDirs,
  sortie,
  startModelServer,
  writeProject,
} from './agent-tools-harness.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';
import {
  FILESYSTEM_SERVER,
  localServerBlock,
  modelArgs,
  pidsIn,
  processAlive,
  workerProject,
  WORKER as AGENT,
} from './cli-mcp-harness.ts';

afterEach(cleanUpAll);

const COMMANDER = 'commander:work';

/** Resolves once the file at `path` exists and holds `text` (watched, not polled). */
async function fileHolds(path: string, text = ''): Promise<void> {
  const stop = new AbortController();
  const changes = watch(dirname(path), { signal: stop.signal });
  const holds = async () =>
    existsSync(path) && (await readFile(path, 'utf8').catch(() => '')).includes(text);
  try {
    if (await holds()) return;
    for await (const change of changes) {
      if (change.filename === basename(path) && (await holds())) return;
    }
  } catch (error) {
    if (!stop.signal.aborted) throw error;
  } finally {
    stop.abort();
  }
}

/** `sortie ARGS` in the background: its exit code and output once it ends. */
function background(args: string[]) {
  const child = spawn(process.execPath, ['bin/sortie.js', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...CLI_ENV },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (status) => resolve({ status, stdout, stderr })),
  );
  return { child, exited };
}

describe('MCP servers over the life of a run (CLI)', () => {
  it('leaves no server process after Ctrl-C in the middle of a call', async () => {
    const dir = await temporaryDirectory('mcp-interrupt');
    const pidFile = join(dir, 'pids');
    const waiting = join(dir, 'waiting');
    const server = await startModelServer(
      delegatingTask('work', 'worker', [call(AGENT, 'mcp_local_wait')], 'Never'),
    );
    const servers = localServerBlock(pidFile, { MCP_WAIT_FILE: `"${waiting}"` });
    const run = background([
      'run',
      await writeProject(workerProject(servers, '[mcp.local.wait]')),
      '--json',
      ...modelArgs(server, join(dir, 'state')),
    ]);
    await fileHolds(waiting);
    const [pid] = await pidsIn(pidFile);
    expect(await processAlive(pid!)).toBe(true);
    run.child.kill('SIGINT');
    const { status, stdout } = await run.exited;
    expect(status).toBe(130);
    expect(jsonLines(stdout).at(-1)).toMatchObject({ type: 'run.finished', outcome: 'cancelled' });
    expect(await processAlive(pid!)).toBe(false);
  }, 60_000);

  it('stops the servers when the run fails', async () => {
    const dir = await temporaryDirectory('mcp-failure');
    const pidFile = join(dir, 'pids');
    const server = await startModelServer([
      call(COMMANDER, 'set_subtasks', { subtasks: ['Do it'] }),
      call(COMMANDER, 'call_agent', { name: 'worker', task: 'work on work' }),
      call(AGENT, 'mcp_local_echo', { text: 'ping' }),
      reply(AGENT, 'The disk is full.'),
      call(COMMANDER, 'task_complete', { succeed: false, reason: 'The disk is full' }),
    ]);
    const run = await sortie([
      'run',
      await writeProject(workerProject(localServerBlock(pidFile), '[mcp.local.echo]')),
      '--json',
      ...modelArgs(server, join(dir, 'state')),
    ]);
    expect(run.stderr).toBe('');
    server.assertDone();
    expect(jsonLines(run.stdout).at(-1)).toMatchObject({ type: 'run.finished', outcome: 'failed' });
    expect(run.status).toBe(1);
    const pids = await pidsIn(pidFile);
    expect(pids).toHaveLength(1);
    expect(await processAlive(pids[0]!)).toBe(false);
  }, 60_000);

  // Two whole runs of the CLI (the killed one and its resume): on a loaded machine with the
  // other MCP test files alongside, over 90 s.
  it('resumes a run killed in the middle of a call, and the MCP tools work after the resume', async () => {
    const dir = await temporaryDirectory('mcp-resume');
    const pidFile = join(dir, 'pids');
    const waiting = join(dir, 'waiting');
    const stateDir = join(dir, 'state');
    const commanderSteps: ScriptTurn[] = [
      { toolCalls: [{ name: 'set_subtasks', arguments: { subtasks: ['Use the tools'] } }] },
      { toolCalls: [{ name: 'call_agent', arguments: { name: 'worker', task: 'use the tools' } }] },
      { toolCalls: [{ name: 'complete_subtask', arguments: {} }] },
      { toolCalls: [{ name: 'task_complete', arguments: { summary: 'Used the tools' } }] },
    ];
    // Stateless answers, so a request sent again after the restart gets the same one.
    const respond = (request: RespondRequest): ScriptTurn | undefined => {
      if (request.actor === COMMANDER) return commanderSteps[callsSoFar(request.body)];
      if (request.actor !== AGENT) return undefined;
      const body = JSON.stringify(request.body);
      const echo = (text: string): ScriptTurn => ({
        toolCalls: [{ name: 'mcp_local_echo', arguments: { text } }],
      });
      if (body.includes('after the resume')) return { text: 'Both calls worked.' };
      if (body.includes('interrupted by a restart')) return echo('after the resume');
      if (body.includes('before the kill')) {
        return { toolCalls: [{ name: 'mcp_local_wait', arguments: {} }] };
      }
      return echo('before the kill');
    };
    const server = await ScriptedModelServer.start({ respond });
    const servers = localServerBlock(pidFile, { MCP_WAIT_FILE: `"${waiting}"` });
    const projectDir = await writeProject(workerProject(servers, '[mcp.local.all]'));
    const first = background(['run', projectDir, '--json', ...modelArgs(server, stateDir)]);
    await fileHolds(waiting);
    // The journal is written in batches: kill once the call is in it, so the resume sees a
    // call without a result (an earlier kill resumes from before the call, and runs it again).
    const [runDir] = await runDirs(stateDir);
    await fileHolds(join(runDir!, 'journal.jsonl'), '"tool":"mcp_local_wait"');
    first.child.kill('SIGKILL');
    await first.exited;
    const runId = basename(runDir!);
    const resumed = await sortie([
      'resume',
      runId,
      projectDir,
      '--json',
      ...modelArgs(server, stateDir),
    ]);
    await server.close();
    expect(resumed.stderr).toBe('');
    expect(resumed.status).toBe(0);
    const journal = jsonLines(
      await readFile(join(stateDir, 'runs', runId, 'journal.jsonl'), 'utf8'),
    );
    const completed = journal
      .filter((event) => event.type === 'tool.completed' && event.actor === AGENT)
      .map((event) => [event.tool, event.result]);
    expect(completed).toEqual([
      ['mcp_local_echo', 'before the kill'],
      ['mcp_local_echo', 'after the resume'],
    ]);
    // One server per sortie process; the killed one's server ended with its stdin, the
    // resumed run stopped its own.
    const pids = await pidsIn(pidFile);
    expect(pids).toHaveLength(2);
    for (const pid of pids) expect(await processAlive(pid)).toBe(false);
  }, 180_000);

  it('runs a published MCP server package spawned with command = "node"', async () => {
    const dir = await temporaryDirectory('mcp-published');
    const servers = `mcp "files" {\n  command = "node"\n  args    = ["${FILESYSTEM_SERVER}", "."]\n}\n`;
    const projectDir = await writeProject(
      workerProject(servers, '[mcp.files.list_directory, mcp.files.read_text_file]'),
    );
    await writeFile(join(projectDir, 'notes.txt'), 'Launch is on Tuesday.\n');
    const server = await startModelServer(
      delegatingTask(
        'work',
        'worker',
        [
          call(AGENT, 'mcp_files_list_directory', { path: projectDir }),
          call(AGENT, 'mcp_files_read_text_file', { path: join(projectDir, 'notes.txt') }),
          call(AGENT, 'mcp_files_read_text_file', { path: '/etc/hostname' }),
          reply(AGENT, 'Launch is on Tuesday.'),
        ],
        'Read the notes',
      ),
    );
    const run = await sortie([
      'run',
      projectDir,
      '--json',
      ...modelArgs(server, join(dir, 'state')),
    ]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    server.assertDone();
    const completed = jsonLines(run.stdout)
      .filter((event) => event.type === 'tool.completed')
      .filter((event) => String(event.tool).startsWith('mcp_files_'))
      .map((event) => [event.result, event.isError]);
    expect(completed).toEqual([
      ['[FILE] main.hcl\n[FILE] notes.txt', false],
      ['Launch is on Tuesday.\n', false],
      [
        JSON.stringify({
          status: 'error',
          error: `mcp "files" tool "read_text_file" failed: Access denied - path outside allowed directories: /etc/hostname not in ${projectDir}`,
        }),
        true,
      ],
    ]);
  }, 60_000);
});
