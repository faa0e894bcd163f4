/**
 * MCP results through the real CLI: an image a server returns reaches the model as an image
 * part in each provider's wire format, a large result is intercepted like any tool's, and a
 * server that crashes mid-call gives the model an error result, is restarted once, and the
 * next call works.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PNG_1X1_BASE64 } from '../fixtures/mcp/test-tools.mjs';
import {
  call,
  cleanUpAll,
  delegatingTask,
  reply,
  sortie,
  startModelServer,
  writeProject,
} from './agent-tools-harness.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';
import {
  localServerBlock,
  modelArgs,
  pidsIn,
  processAlive,
  workerProject,
  WORKER as AGENT,
} from './cli-mcp-harness.ts';

afterEach(cleanUpAll);

type Provider = 'openai' | 'anthropic' | 'gemini';

/** Every object nested anywhere in a JSON value. */
function objectsIn(value: unknown): Array<Record<string, unknown>> {
  if (Array.isArray(value)) return value.flatMap(objectsIn);
  if (value === null || typeof value !== 'object') return [];
  const record = value as Record<string, unknown>;
  return [record, ...Object.values(record).flatMap(objectsIn)];
}

/** The image part as each provider's wire carries it. */
const IMAGE_PART: Record<Provider, Record<string, unknown>> = {
  openai: {
    type: 'input_image',
    image_url: `data:image/png;base64,${PNG_1X1_BASE64}`,
    detail: 'auto',
  },
  anthropic: {
    type: 'image',
    source: { type: 'base64', media_type: 'image/png', data: PNG_1X1_BASE64 },
  },
  gemini: { inlineData: { mimeType: 'image/png', data: PNG_1X1_BASE64 } },
};

async function runProject(provider: Provider, agentTurns: Parameters<typeof delegatingTask>[2]) {
  const dir = await temporaryDirectory('mcp-results');
  const pidFile = join(dir, 'pids');
  const server = await startModelServer(delegatingTask('work', 'worker', agentTurns, 'Worked'));
  const run = await sortie([
    'run',
    await writeProject(workerProject(localServerBlock(pidFile), '[mcp.local.all]'), provider),
    '--plain',
    ...modelArgs(server, join(dir, 'state'), provider),
  ]);
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  server.assertDone();
  const agentRequests = server.requests.filter((request) => request.actor === AGENT);
  return { agentRequests, pids: await pidsIn(pidFile) };
}

describe.each(['openai', 'anthropic', 'gemini'] as const)(
  'an MCP image on %s (CLI)',
  (provider) => {
    it('reaches the model as an image part once the tool ran', async () => {
      const { agentRequests } = await runProject(provider, [
        call(AGENT, 'mcp_local_picture'),
        reply(AGENT, 'A single dot.'),
      ]);
      expect(agentRequests).toHaveLength(2);
      const [before, after] = agentRequests.map((request) => objectsIn(request.body));
      expect(before).not.toContainEqual(IMAGE_PART[provider]);
      expect(after).toContainEqual(IMAGE_PART[provider]);
    }, 60_000);
  },
);

describe('MCP results through the CLI', () => {
  it('intercepts a large result and offers the result tools', async () => {
    const { agentRequests } = await runProject('openai', [
      call(AGENT, 'mcp_local_big', { kilobytes: 80 }),
      reply(AGENT, 'The report is long.', { lastMessageContains: '"status":"partial"' }),
    ]);
    const tools = (body: unknown) =>
      ((body as { tools: Array<{ name: string }> }).tools ?? []).map((tool) => tool.name);
    expect(tools(agentRequests[0]!.body)).not.toContain('result_chunk');
    expect(tools(agentRequests[1]!.body)).toContain('result_chunk');
    const input = JSON.stringify(agentRequests[1]!.body);
    expect(input).toContain('\\"result_id\\":\\"result_1\\"');
    // The 80 kB report itself never went to the model.
    expect(input.length).toBeLessThan(20_000);
  }, 60_000);

  it('answers a crash mid-call with an error result and restarts the server for the next call', async () => {
    const { agentRequests, pids } = await runProject('openai', [
      call(AGENT, 'mcp_local_crash'),
      call(AGENT, 'mcp_local_echo', { text: 'still here' }, { lastMessageContains: 'restarted' }),
      reply(AGENT, 'The server came back.', { lastMessageContains: 'still here' }),
    ]);
    expect(JSON.stringify(agentRequests[1]!.body)).toContain(
      'mcp \\\\\\"local\\\\\\": the server stopped during the call (it wrote: fatal: the index is corrupt); the call may or may not have taken effect. The server is restarted for the next call.',
    );
    expect(pids).toHaveLength(2);
    for (const pid of pids) expect(await processAlive(pid)).toBe(false);
  }, 60_000);
});
