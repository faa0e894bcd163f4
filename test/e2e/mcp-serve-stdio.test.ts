/**
 * `sortie mcp serve` over stdio with the SDK's client: the built CLI as the client's child, runs
 * answered by the scripted model server. Lists the tools (the host's and one per mission with
 * the mission's inputs), runs a mission with typed inputs to its result with progress, answers
 * an agent's question through elicitation (or, for a client that cannot elicit, as a headless
 * run does), reads the run as a resource, through the host's tools and with `sortie show`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScriptedModelServer } from '../../src/testing/index.ts';
import { builtCli } from './built-cli.ts';
import { sortieAsync } from './cli-child.ts';
import { outputsOf } from './cli-human-harness.ts';
import {
  connectStdio,
  expectQuestionElicited,
  PROJECT_TOOLS,
  resultJson,
  type TestClient,
} from './mcp-serve-harness.ts';
import { greeting, PROTECTED_VALUE, serveProject, startServedModel } from './serve-harness.ts';

let model: ScriptedModelServer;
let project: string;
let stateDir: string;
let connected: TestClient;

beforeAll(async () => {
  await builtCli();
  model = await startServedModel();
  ({ project, stateDir } = await serveProject());
  connected = await connectStdio(project, stateDir, model, () => ({
    action: 'accept',
    content: { answer: 'eu' },
  }));
}, 240_000);

afterAll(async () => {
  await connected?.client.close();
  await model?.close();
});

const GREETED = greeting('Ada').replace(PROTECTED_VALUE, '••••');

describe('sortie mcp serve over stdio', () => {
  it('lists the host tools and one typed tool per mission', async () => {
    const { tools } = await connected.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(PROJECT_TOOLS);
    const greet = tools.find((tool) => tool.name === 'mission_greet');
    expect(greet?.inputSchema).toEqual({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: {
        name: { type: 'string', description: 'Who to greet' },
        times: { type: 'number', description: 'How often', default: 1 },
        // A protected input's default is never shown.
        token: { type: 'string', description: 'A token nobody may see' },
        note: {
          type: 'object',
          description: 'A note',
          properties: {
            filename: { type: 'string', description: 'The file name (no slashes)' },
            content_base64: { type: 'string', description: 'The file, base64-encoded' },
          },
          required: ['content_base64'],
          additionalProperties: false,
        },
      },
      required: ['name'],
      additionalProperties: false,
    });
  });

  it('runs a mission with typed inputs to its result, with progress, as an ordinary run', async () => {
    const progress: Array<{ progress: number; message?: string }> = [];
    const result = await connected.client.callTool(
      {
        name: 'mission_greet',
        arguments: {
          name: 'Ada',
          times: 2,
          token: PROTECTED_VALUE,
          note: { filename: 'note.txt', content_base64: Buffer.from('hi').toString('base64') },
        },
      },
      undefined,
      { onprogress: (notification) => progress.push(notification) },
    );
    const details = resultJson(result);
    const runId = String(details.run_id);
    expect(result.isError).toBeUndefined();
    expect(details).toMatchObject({ mission: 'greet', status: 'succeeded' });
    expect(details.tasks).toEqual([
      expect.objectContaining({
        name: 'hello',
        status: 'succeeded',
        summary: 'Greeted Ada',
        output: { text: GREETED },
      }),
    ]);
    expect((result.content as unknown[])[1]).toEqual({
      type: 'resource_link',
      uri: `sortie://runs/${runId}`,
      name: `run ${runId}`,
      mimeType: 'application/json',
    });
    expect(progress.map((notification) => notification.progress)).toEqual(
      progress.map((_, index) => index + 1),
    );
    expect(progress[0]?.message).toBe(`run  started run ${runId} (mission greet)`);
    expect(progress.map((notification) => notification.message)).toContain(
      'task:hello  succeeded: Greeted Ada',
    );
    const resource = await connected.client.readResource({ uri: `sortie://runs/${runId}` });
    expect(resource.contents).toHaveLength(1);
    const [document] = resource.contents;
    expect(document !== undefined && 'text' in document ? JSON.parse(document.text) : null).toEqual(
      details,
    );
    const everything = JSON.stringify([result, progress, resource, connected.stderr()]);
    expect(everything).not.toContain(PROTECTED_VALUE);
    const show = await sortieAsync(['show', runId, '--state-dir', stateDir]);
    expect(show.status).toBe(0);
    expect(show.stdout).toContain('Greeted Ada');
  });

  it('refuses bad inputs with a message naming them', async () => {
    const result = await connected.client.callTool({
      name: 'mission_greet',
      arguments: { name: 'Ada', note: { filename: '../x', content_base64: 'aGk=' } },
    });
    expect(result).toEqual({
      isError: true,
      content: [
        {
          type: 'text',
          text: 'invalid inputs for mission "greet": note: the file name must be a plain file name (no slashes)',
        },
      ],
    });
  });

  it('puts an agent question to the client as an elicitation', async () => {
    await expectQuestionElicited(connected, model, 'eu');
  });

  it('starts a run with run_mission and reads it with list_runs and get_run_details', async () => {
    const started = resultJson(
      await connected.client.callTool({
        name: 'run_mission',
        arguments: { name: 'greet', inputs: { name: 'Bo' } },
      }),
    );
    const runId = String(started.run_id);
    expect(started).toEqual({
      accepted: true,
      run_id: runId,
      status: 'running',
      uri: `sortie://runs/${runId}`,
    });
    const listed = resultJson(
      await connected.client.callTool({
        name: 'list_runs',
        arguments: { mission_name: 'greet', limit: 1 },
      }),
    );
    expect(listed.total).toBe(2);
    expect((listed.runs as Array<{ run_id: string }>).map((row) => row.run_id)).toEqual([runId]);
    const details = resultJson(
      await connected.client.callTool({ name: 'get_run_details', arguments: { run_id: runId } }),
    );
    expect(details).toMatchObject({ run_id: runId, mission: 'greet' });
    const unknown = await connected.client.callTool({
      name: 'get_run_details',
      arguments: { run_id: '../../etc' },
    });
    expect(unknown).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'no run ../../etc in this state directory' }],
    });
    expect(connected.errors).toEqual([]);
  });
});

describe('sortie mcp serve: a client that cannot elicit', () => {
  it('gets its runs’ questions answered as headless runs do', async () => {
    const headless = await connectStdio(project, stateDir, model, undefined);
    try {
      const result = await headless.client.callTool({ name: 'mission_ask', arguments: {} });
      expect(resultJson(result)).toMatchObject({ mission: 'ask', status: 'succeeded' });
      const asker = model.requests.filter((request) => request.actor === 'agent:decide/asker');
      expect(outputsOf(asker.at(-1)?.body)).toEqual(['[no human available]']);
    } finally {
      await headless.client.close();
    }
    // A second CLI process starts and runs a mission: slower than a call on a warm one.
  }, 90_000);
});
