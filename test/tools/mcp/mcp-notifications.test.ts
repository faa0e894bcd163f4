/**
 * A server's progress on a call and its log messages during it reach the calling agent's
 * `notify`, in the order the server sent them, before the call's result.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ToolNotice } from '../../../src/tools/builtins/agent-tool.ts';
import { NO_HUMAN_AVAILABLE } from '../../../src/tools/builtins/human-ask.ts';
import { cleanUp, openPool } from './mcp-harness.ts';

afterEach(cleanUp);

const signal = new AbortController().signal;
const SERVER = join(import.meta.dirname, '../../fixtures/mcp/chatty-server.mjs');

describe('MCP notifications', () => {
  it("passes the server's progress and log messages to the caller", async () => {
    const pool = await openPool([
      { kind: 'command', name: 'chatty', command: process.execPath, args: [SERVER], env: {} },
    ]);
    const [tool] = await pool.toolsFor([{ server: 'chatty', tool: 'index' }], signal);
    const notices: ToolNotice[] = [];
    const outcome = await tool!.execute(
      {},
      {
        signal,
        callId: 'call-1',
        human: { ask: async () => NO_HUMAN_AVAILABLE },
        notify: (notice) => notices.push(notice),
      },
    );
    expect(outcome.content).toBe('indexed');
    const progress = { kind: 'progress', server: 'chatty', callId: 'call-1', total: 2 };
    expect(notices).toEqual([
      { kind: 'log', server: 'chatty', level: 'info', logger: 'indexer', text: 'starting' },
      { ...progress, progress: 1, message: 'reading' },
      { ...progress, progress: 2, message: 'done \u001b[31mred' },
      {
        kind: 'log',
        server: 'chatty',
        level: 'warning',
        logger: null,
        text: '{"files":2,"skipped":["a.bin"]}',
      },
    ]);
  });
});
