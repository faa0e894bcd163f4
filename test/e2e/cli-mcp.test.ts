/**
 * Issue 11 item 1 through the real CLI with the scripted model server: an agent with
 * `mcp.NAME.TOOL` and `mcp.NAME.all` tools of a stdio server and a Streamable HTTP server
 * (both written with the SDK), secrets from `env` and `headers` hidden everywhere, a tool the
 * server lacks reported before any model request, and no server process after the run.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startStreamableServer } from '../fixtures/mcp/http-servers.ts';
import {
  call,
  cleanUpAll,
  delegatingTask,
  filesBelow,
  jsonLines,
  leakForms,
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
  outputsOf,
} from './cli-mcp-harness.ts';

afterEach(cleanUpAll);

const TOKEN = 'mcp-"tok"-9f8e7d\\secret';

function project(pidFile: string, url: string, tools: string): string {
  const servers = `
variable "mcp_token" {
  secret = true
}

${localServerBlock(pidFile, { MCP_TOKEN: 'vars.mcp_token' })}
mcp "web" {
  url     = "${url}"
  headers = {
    Authorization = "Bearer \${vars.mcp_token}"
    X-Team        = "blue"
  }
}
`;
  return workerProject(servers, tools);
}

/** Every tool name of an OpenAI Responses request body. */
function toolNames(body: unknown): string[] {
  return ((body as { tools?: Array<{ name: string }> }).tools ?? []).map((tool) => tool.name);
}

describe('MCP tools through the CLI', () => {
  it('offers mcp.NAME.TOOL and mcp.NAME.all tools, calls them, hides their secrets and stops the servers', async () => {
    const web = await startStreamableServer({ authorization: `Bearer ${TOKEN}` });
    const dir = await temporaryDirectory('mcp');
    const pidFile = join(dir, 'pids');
    const cassette = join(dir, 'cassette.jsonl');
    const server = await startModelServer(
      delegatingTask(
        'work',
        'worker',
        [
          call(AGENT, 'mcp_local_echo', { text: 'ping' }),
          call(AGENT, 'mcp_local_env', { name: 'MCP_TOKEN' }, { lastMessageContains: 'ping' }),
          call(AGENT, 'mcp_web_header', { name: 'authorization' }, { lastMessageContains: '••••' }),
          reply(AGENT, 'All three tools answered.'),
        ],
        'Worked',
      ),
    );
    const run = await sortie([
      'run',
      await writeProject(project(pidFile, web.url, '[mcp.local.echo, mcp.local.env, mcp.web.all]')),
      '--json',
      '--record',
      cassette,
      '--var',
      'api_key=test-key',
      '--var',
      `base_url=${server.baseUrl('openai')}`,
      '--var',
      `mcp_token=${TOKEN}`,
      '--state-dir',
      join(dir, 'state'),
    ]);
    await web.close();
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    server.assertDone();
    const agentRequests = server.requests.filter((request) => request.actor === AGENT);
    expect(toolNames(agentRequests[0]!.body)).toEqual([
      'mcp_local_echo',
      'mcp_local_env',
      'mcp_web_echo',
      'mcp_web_add',
      'mcp_web_picture',
      'mcp_web_big',
      'mcp_web_fail',
      'mcp_web_env',
      'mcp_web_header',
      'mcp_web_wait',
      'mcp_web_crash',
      'set_dataset',
      'dataset_sample',
      'dataset_count',
      'result_to_dataset',
    ]);
    // The token reached both servers; the model saw it masked (the whole header is a secret).
    expect(outputsOf(agentRequests.at(-1)!.body)).toEqual(['ping', '••••', '••••']);
    expect(web.received.every((headers) => headers['x-team'] === 'blue')).toBe(true);
    const [pid] = await pidsIn(pidFile);
    expect(await pidsIn(pidFile)).toHaveLength(1);
    expect(await processAlive(pid!)).toBe(false);
    const written = [
      { path: 'stdout', text: run.stdout },
      { path: 'cassette', text: await readFile(cassette, 'latin1') },
      {
        path: 'model requests',
        text: JSON.stringify(server.requests.map((request) => request.body)),
      },
      ...(await filesBelow(join(dir, 'state'))),
    ];
    for (const file of written) {
      for (const form of leakForms(TOKEN)) {
        expect({ path: file.path, leaked: file.text.includes(form) }).toEqual({
          path: file.path,
          leaked: false,
        });
      }
    }
  }, 60_000);

  it('reports a tool the server does not offer before any model request', async () => {
    const dir = await temporaryDirectory('mcp-unknown');
    const pidFile = join(dir, 'pids');
    const server = await startModelServer([]);
    const hcl = workerProject(localServerBlock(pidFile), '[mcp.local.echo, mcp.local.ecko]');
    const run = await sortie([
      'run',
      await writeProject(hcl),
      '--json',
      ...modelArgs(server, join(dir, 'state')),
    ]);
    expect(run.status).toBe(1);
    expect(server.requests).toEqual([]);
    const failed = jsonLines(run.stdout).find((event) => event.type === 'mission.failed');
    expect(failed?.error).toBe(
      'main.hcl:22:34: mcp "local" has no tool "ecko" (did you mean "echo"?); it offers echo, add, picture, big, fail, env, header, wait, crash',
    );
    const [pid] = await pidsIn(pidFile);
    expect(await processAlive(pid!)).toBe(false);
  }, 60_000);
});
