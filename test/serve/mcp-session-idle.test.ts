/**
 * The `mcp_host` endpoint closes a session that has had no request and no open stream for its
 * idle time: a client that vanished without a DELETE does not keep a server of its own forever,
 * and one that comes back is told 404 (initialize again). A client still listening on its
 * stream keeps its session however long it waits.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ScriptedModelServer } from '../../src/testing/index.ts';
import { connectHttp, type TestClient } from '../e2e/mcp-serve-harness.ts';
import { holdingModel, projectFolder, startInProcess } from './in-process-serve.ts';
import type { InProcessServer } from './in-process-serve.ts';
import { ManualClock } from './schedule-clock.ts';

const IDLE_MS = 60_000;
const HEADERS = {
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-11-25',
};
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A served project with an `mcp_host` block on a free port, on a clock of the test's. */
async function servedHost(clock: ManualClock): Promise<{ served: InProcessServer; url: string }> {
  const model: ScriptedModelServer = await holdingModel(() => undefined);
  cleanups.push(() => model.close());
  const folder = await projectFolder();
  await writeFile(join(folder.project, 'mcp_host.hcl'), 'mcp_host {\n  enabled = true\n}\n');
  const served = await startInProcess(folder, model, {
    clock,
    mcpPort: 0,
    mcpSessionIdleMs: IDLE_MS,
  });
  cleanups.push(() => served.stop());
  return { served, url: served.server.mcpUrl ?? '' };
}

/** The status a plain `tools/list` with this session id gets. */
async function statusOf(url: string, sessionId: string): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...HEADERS, 'content-type': 'application/json', 'mcp-session-id': sessionId },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' }),
  });
  await response.body?.cancel();
  return response.status;
}

function sessionOf(connected: TestClient): string {
  return (connected.client.transport as StreamableHTTPClientTransport).sessionId ?? '';
}

describe('mcp_host sessions', () => {
  it('closes a session left with no request and no stream for the idle time', async () => {
    const clock = new ManualClock('2026-11-28T10:00:00Z');
    const { url } = await servedHost(clock);
    const connected = await connectHttp(url, undefined, undefined);
    const sessionId = sessionOf(connected);
    // The client goes away without ending its session (no DELETE): its stream closes.
    await connected.client.transport?.close();
    clock.advanceTo('2026-11-28T10:00:59Z');
    expect(await statusOf(url, sessionId)).toBe(200);
    clock.advanceTo('2026-11-28T10:01:58Z');
    expect(await statusOf(url, sessionId)).toBe(200);
    clock.advanceTo('2026-11-28T10:03:00Z');
    expect(await statusOf(url, sessionId)).toBe(404);
  });

  it('keeps a session whose client still listens on its stream, however long it waits', async () => {
    const clock = new ManualClock('2026-11-28T10:00:00Z');
    const { url } = await servedHost(clock);
    const sessionId = await initialize(url);
    // The client's stream for the server's messages: open until the client drops it.
    const stream = await fetch(url, { headers: { ...HEADERS, 'mcp-session-id': sessionId } });
    expect(stream.status).toBe(200);
    clock.advanceTo('2026-11-28T12:00:00Z');
    expect(await statusOf(url, sessionId)).toBe(200);
    await stream.body?.cancel();
  });
});

/** Opens a session as a client does (initialize, then initialized); resolves with its id. */
async function initialize(url: string): Promise<string> {
  const opened = await fetch(url, {
    method: 'POST',
    headers: { ...HEADERS, 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'sortie-test', version: '1.0.0' },
      },
    }),
  });
  await opened.text();
  const sessionId = opened.headers.get('mcp-session-id') ?? '';
  const initialized = await fetch(url, {
    method: 'POST',
    headers: { ...HEADERS, 'content-type': 'application/json', 'mcp-session-id': sessionId },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  expect(initialized.status).toBe(202);
  return sessionId;
}
