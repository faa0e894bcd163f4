/**
 * Issue 29 item 2 (progress and log notifications) through the real CLI: an SDK server's
 * progress on a call and its log messages are events of the calling agent, in `--json` and in
 * the plain log, their text escaped like any model or tool text.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  call,
  cleanUpAll,
  delegatingTask,
  jsonLines,
  reply,
  sortie,
  startModelServer,
  writeProject,
} from './agent-tools-harness.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';
import { modelArgs, workerProject, WORKER as AGENT } from './cli-mcp-harness.ts';

afterEach(cleanUpAll);

const SERVER = join(import.meta.dirname, '../fixtures/mcp/chatty-server.mjs');

async function runIndex(output: '--json' | '--plain') {
  const dir = await temporaryDirectory('mcp-notify');
  const model = await startModelServer(
    delegatingTask(
      'work',
      'worker',
      [call(AGENT, 'mcp_chatty_index', {}), reply(AGENT, 'Indexed.')],
      'Worked',
    ),
  );
  const project = await writeProject(
    workerProject(
      `mcp "chatty" {\n  command = "node"\n  args    = ["${SERVER}"]\n}\n`,
      '[mcp.chatty.index]',
    ),
  );
  const run = await sortie(['run', project, output, ...modelArgs(model, join(dir, 'state'))]);
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  model.assertDone();
  return run.stdout;
}

describe('MCP progress and log notifications through the CLI', () => {
  it('are events of the calling agent in --json, between the call and its result', async () => {
    const events = jsonLines(await runIndex('--json')).filter(
      (event) => event.actor === AGENT && String(event.type).match(/^(mcp\.|tool\.)/) !== null,
    );
    const callId = events[0]?.callId;
    expect(
      events.map(
        ({ seq: _seq, time: _time, runId: _runId, durationMs: _duration, ...rest }) => rest,
      ),
    ).toEqual([
      { type: 'tool.called', actor: AGENT, callId, tool: 'mcp_chatty_index', arguments: '{}' },
      {
        type: 'mcp.logged',
        actor: AGENT,
        server: 'chatty',
        level: 'info',
        logger: 'indexer',
        text: 'starting',
      },
      {
        type: 'mcp.progressed',
        actor: AGENT,
        server: 'chatty',
        callId,
        progress: 1,
        total: 2,
        message: 'reading',
      },
      {
        type: 'mcp.progressed',
        actor: AGENT,
        server: 'chatty',
        callId,
        progress: 2,
        total: 2,
        message: 'done \u001b[31mred',
      },
      {
        type: 'mcp.logged',
        actor: AGENT,
        server: 'chatty',
        level: 'warning',
        logger: null,
        text: '{"files":2,"skipped":["a.bin"]}',
      },
      {
        type: 'tool.completed',
        actor: AGENT,
        callId,
        tool: 'mcp_chatty_index',
        result: 'indexed',
        isError: false,
      },
    ]);
  }, 120_000);

  it('are lines of the agent in the plain log, escapes shown rather than sent', async () => {
    const lines = (await runIndex('--plain'))
      .split('\n')
      .filter((line) => line.includes('mcp "chatty"'))
      .map((line) => line.replace(/^\S+\s+/, ''));
    expect(lines).toEqual([
      `${AGENT}  mcp "chatty" log info (indexer): starting`,
      `${AGENT}  mcp "chatty" progress 1/2: reading`,
      `${AGENT}  mcp "chatty" progress 2/2: done \\x1b[31mred`,
      `${AGENT}  mcp "chatty" log warning: {"files":2,"skipped":["a.bin"]}`,
    ]);
  }, 120_000);
});
