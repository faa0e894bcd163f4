/**
 * The programmatic API (`src/index.ts`) from the sources: open and verify a project with
 * TypeScript functions registered as tools, run a mission against the scripted model server,
 * follow its events and await its result.
 */
import { getEventListeners } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ConfigError,
  defineFunctionTool,
  openProject,
  resumeMission,
  runMission,
  UsageError,
  type MissionEvent,
  type Project,
  type SortieTool,
} from '../../src/index.ts';
import { ScriptedModelServer, type ScriptTurn } from '../../src/testing/index.ts';
import { capitalMock, capitalProject } from './capital-project.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function project(agentTools: string, extra = ''): Promise<string> {
  const dir = await temporaryDirectory('library');
  await writeFile(join(dir, 'main.hcl'), capitalProject(agentTools, extra));
  return dir;
}

const lookup = defineFunctionTool({
  name: 'lookup',
  description: 'The capital of a country',
  input: z.object({
    country: z
      .string()
      .min(1)
      .refine((name) => name !== 'Atlantis', 'no such country'),
    language: z.string().default('en'),
  }),
  run: (input) => ({
    capital: input.country === 'France' ? 'Paris' : '?',
    language: input.language,
  }),
});

const failing: SortieTool = {
  name: 'failing',
  description: 'Always fails',
  input: { type: 'object', properties: {} },
  run: () => {
    throw new Error('the archive is offline');
  },
};

const leaky: SortieTool = {
  name: 'leaky',
  description: 'Returns a secret by mistake',
  input: { type: 'object', properties: {} },
  run: () => 'token is tok-0123456789',
};

const many: SortieTool = {
  name: 'many',
  description: 'Lists cities',
  input: { type: 'object', properties: {} },
  run: () => Array.from({ length: 25 }, (_, index) => ({ city: `c${index}` })),
};

/** The capital project opened with a mock-model file whose agent looks up France. */
async function mockedCapital(): Promise<{ opened: Project; mockModel: string }> {
  const dir = await project('tools.lookup');
  const mockModel = join(dir, 'mock.yaml');
  await writeFile(
    mockModel,
    capitalMock(`  - tool: tools_lookup
    arguments: { country: France }
  - text: Paris
`),
  );
  const opened = await openProject(dir, {
    vars: { api_key: 'k', base_url: 'http://127.0.0.1:9/v1', token: 't' },
    env: {},
    tools: [lookup],
  });
  return { opened, mockModel };
}

describe('openProject', () => {
  it('verifies an agent that lists a registered tool as tools.NAME', async () => {
    const opened = await openProject(await project('tools.lookup'), { tools: [lookup] });
    expect(opened.diagnostics).toEqual([]);
    expect(opened.ok).toBe(true);
    expect(opened.missions).toEqual(['look']);
  });

  it('still reports an unknown tool, suggesting a registered name', async () => {
    const opened = await openProject(await project('tools.lookups'), { tools: [lookup] });
    expect(opened.ok).toBe(false);
    expect(opened.diagnostics.map((diagnostic) => diagnostic.message)).toEqual([
      'unknown tool "lookups" in tools (did you mean "lookup"?)',
    ]);
  });

  it('refuses a tool block with the name of a registered tool', async () => {
    const block = `tool "lookup" {
  implements = builtins.http.get
  url        = "http://127.0.0.1:9/"
}`;
    const opened = await openProject(await project('tools.lookup', block), { tools: [lookup] });
    expect(opened.diagnostics.map((diagnostic) => [diagnostic.line, diagnostic.message])).toEqual([
      [32, 'tool "lookup" is also registered as a TypeScript function tool'],
    ]);
  });

  it.each<[string, SortieTool, string, string | undefined]>([
    [
      'a name HCL cannot refer to',
      { ...failing, name: 'look-up' },
      'tool name "look-up" cannot be referenced as tools.NAME',
      'use letters, digits and _ (at most 58), not starting with a digit',
    ],
    [
      'an input that is not an object',
      { ...failing, input: { type: 'string' } },
      'tool "failing": its input schema must describe an object (type "object"), got "string"',
      'models send a tool its arguments as one object: wrap the value in an object with one property',
    ],
    [
      'a schema library without a JSON Schema converter',
      {
        ...failing,
        input: { '~standard': { version: 1, vendor: 'plain', validate: (value) => ({ value }) } },
      },
      'tool "failing": its plain input schema cannot be converted to JSON Schema',
      'give a JSON Schema object instead, e.g. z.toJSONSchema(schema) for zod',
    ],
    ['the same name twice', failing, 'tool "failing" is registered twice', undefined],
  ])('rejects %s', async (_name, tool, message, hint) => {
    const tools = tool === failing ? [failing, failing] : [tool];
    const attempt = openProject(await project('tools.failing'), { tools });
    await expect(attempt).rejects.toBeInstanceOf(UsageError);
    await expect(openProject(await project('tools.failing'), { tools })).rejects.toMatchObject({
      message,
      hint,
    });
  });
});

/** The project in `dir` with the lookup tool, its model at the scripted server. */
function openAgainst(dir: string, model: ScriptedModelServer): Promise<Project> {
  return openProject(dir, {
    vars: { api_key: 'test', base_url: model.baseUrl('openai'), token: 't' },
    env: {},
    tools: [lookup],
  });
}

describe('runMission', () => {
  async function server(agentTurns: ScriptTurn[]): Promise<ScriptedModelServer> {
    const commander = { actor: 'commander:find' };
    const started = await ScriptedModelServer.start({
      turns: [
        {
          match: commander,
          toolCalls: [{ name: 'set_subtasks', arguments: { subtasks: ['Look'] } }],
        },
        {
          match: commander,
          toolCalls: [{ name: 'call_agent', arguments: { name: 'clerk', task: 'Look it up' } }],
        },
        ...agentTurns.map((turn) => ({ ...turn, match: { actor: 'agent:find/clerk' } })),
        { match: commander, toolCalls: [{ name: 'complete_subtask', arguments: {} }] },
        {
          match: commander,
          toolCalls: [{ name: 'task_complete', arguments: { summary: 'Paris' } }],
        },
      ],
    });
    cleanups.push(() => started.close());
    return started;
  }

  it('runs a mission whose agent calls registered tools, with events and a journal', async () => {
    const model = await server([
      {
        toolCalls: [
          { name: 'tools_lookup', arguments: { country: 'France' } },
          { name: 'tools_lookup', arguments: { country: 'Atlantis' } },
          { name: 'tools_lookup', arguments: { country: '' } },
          { name: 'tools_failing', arguments: {} },
          { name: 'tools_leaky', arguments: {} },
          { name: 'tools_many', arguments: {} },
        ],
      },
      { text: 'The capital is Paris.' },
    ]);
    const dir = await project('tools.lookup, tools.failing, tools.leaky, tools.many');
    const opened = await openProject(dir, {
      vars: { api_key: 'test', base_url: model.baseUrl('openai'), token: 'tok-0123456789' },
      env: {},
      tools: [lookup, failing, leaky, many],
    });
    const stateDir = join(dir, 'state');
    const run = runMission(opened, { inputs: { country: 'France' }, stateDir });
    const events: MissionEvent[] = [];
    run.subscribe((event) => events.push(event));
    const result = await run.result;

    model.assertDone();
    expect(result.status).toBe('succeeded');
    expect(result.tasks.map((task) => [task.name, task.status, task.summary])).toEqual([
      ['find', 'succeeded', 'Paris'],
    ]);
    expect(events[0]?.type).toBe('run.started');
    expect(events.at(-1)?.type).toBe('run.finished');
    // The six calls of one reply run together and complete in any order: read them in call order.
    const callOrder = events.flatMap((event) =>
      event.type === 'tool.called' ? [event.callId] : [],
    );
    const completed = events
      .flatMap((event) =>
        event.type === 'tool.completed' && event.tool.startsWith('tools_') ? [event] : [],
      )
      .sort((a, b) => callOrder.indexOf(a.callId) - callOrder.indexOf(b.callId))
      .map((event) => [event.tool, event.isError, event.result]);
    expect(completed.slice(0, 5)).toEqual([
      ['tools_lookup', false, '{"capital":"Paris","language":"en"}'],
      [
        'tools_lookup',
        true,
        '{"status":"error","error":"invalid arguments for tools_lookup","problems":["/country: no such country"]}',
      ],
      [
        'tools_lookup',
        true,
        '{"status":"error","error":"invalid arguments for tools_lookup","problems":["/country: must have at least 1 character"]}',
      ],
      ['tools_failing', true, '{"status":"error","error":"tool failed: the archive is offline"}'],
      ['tools_leaky', false, 'token is ••••'],
    ]);
    expect(completed[5]?.[0]).toBe('tools_many');
    expect(JSON.parse(completed[5]?.[2] as string)).toMatchObject({
      status: 'partial',
      type: 'array',
      total_items: 25,
    });
    expect(await readdir(join(stateDir, 'runs'))).toEqual([run.runId]);
  });

  it('resumes a cancelled run under its id, and refuses to resume it once it succeeded', async () => {
    const model = await server([{ text: 'The capital is Paris.' }]);
    const dir = await project('tools.lookup');
    const opened = await openAgainst(dir, model);
    const stateDir = join(dir, 'state');
    // Cancelled at its first model request, before the request is sent.
    const first = runMission(opened, {
      inputs: { country: 'France' },
      stateDir,
      gate: { before: () => Promise.resolve(first.cancel()) },
    });
    expect((await first.result).status).toBe('cancelled');
    expect(model.requests).toEqual([]);

    const resumed = await resumeMission(opened, first.runId.slice(0, 18), { stateDir });
    const result = await resumed.result;

    model.assertDone();
    expect(resumed.runId).toBe(first.runId);
    expect([result.status, result.tasks.map((task) => task.summary)]).toEqual([
      'succeeded',
      ['Paris'],
    ]);
    await expect(resumeMission(opened, first.runId, { stateDir })).rejects.toThrow(
      new UsageError(`run ${first.runId} succeeded; there is nothing to resume`),
    );
  });

  it('stops a run whose journal cannot be written, saying how to resume it', async () => {
    const model = await server([]);
    const dir = await project('tools.lookup');
    const opened = await openAgainst(dir, model);
    const stateDir = join(dir, 'state');
    const run = runMission(opened, { inputs: { country: 'France' }, stateDir });
    // A file where the run's journal folder goes, made before the run's first await returns.
    mkdirSync(join(stateDir, 'runs'), { recursive: true });
    writeFileSync(join(stateDir, 'runs', run.runId), '');
    const outcome = (await run.result.catch((error: unknown) => error)) as UsageError;
    expect(outcome).toBeInstanceOf(UsageError);
    expect([outcome.message, outcome.hint]).toEqual([
      `cannot create the folder ${join(stateDir, 'runs', run.runId)}: a part of the path is a file, not a folder; the run was stopped`,
      `make room (or fix the file), then continue the run with: resumeMission(project, "${run.runId}")`,
    ]);
  });

  it('answers from a mock-model file with no server, and refuses it with a cassette to replay', async () => {
    const { opened, mockModel } = await mockedCapital();
    const run = runMission(opened, { inputs: { country: 'France' }, mockModel, journal: false });
    const results: string[] = [];
    run.subscribe((event) => {
      if (event.type === 'tool.completed' && event.tool === 'tools_lookup')
        results.push(event.result);
    });
    const result = await run.result;
    expect([result.status, results]).toEqual([
      'succeeded',
      ['{"capital":"Paris","language":"en"}'],
    ]);
    const both = runMission(opened, { mockModel, replayModel: mockModel, journal: false });
    await expect(both.result).rejects.toThrow(
      new UsageError('--mock-model and --replay-model cannot be used together'),
    );
  });

  it('gives a result JSON.stringify writes, with the cost as a pico string and in dollars', async () => {
    const { opened, mockModel } = await mockedCapital();
    // One step of 1M input and 1M output tokens of gpt-4o-mini: $0.15 + $0.60.
    await writeFile(
      mockModel,
      capitalMock(`  - text: Paris
    usage: { input: 1000000, output: 1000000 }
`),
    );
    const result = await runMission(opened, {
      inputs: { country: 'France' },
      mockModel,
      journal: false,
    }).result;
    expect([result.costPico, result.costDollars]).toEqual([750_000_000_000n, 0.75]);
    const json = JSON.parse(JSON.stringify(result)) as Record<string, unknown>;
    expect({ ...json, runId: 'RUN', tasks: (json.tasks as unknown[]).length }).toEqual({
      runId: 'RUN',
      status: 'succeeded',
      missions: [{ name: 'look', status: 'succeeded' }],
      tasks: 1,
      tokens: 2_000_000,
      costPico: '750000000000',
      costDollars: 0.75,
      unpriced: false,
    });
  });

  it("lets go of the caller's signal when each run ends, however many runs share it", async () => {
    const { opened, mockModel } = await mockedCapital();
    // An application's one shutdown signal, handed to every run it starts.
    const shutdown = new AbortController().signal;
    for (let run = 0; run < 12; run++) {
      const result = await runMission(opened, {
        inputs: { country: 'France' },
        mockModel,
        journal: false,
        signal: shutdown,
      }).result;
      expect(result.status).toBe('succeeded');
    }
    expect(getEventListeners(shutdown, 'abort')).toHaveLength(0);
  });

  it('rejects a run whose inputs are invalid, before any model request', async () => {
    const opened = await openProject(await project('tools.lookup'), {
      vars: { api_key: 'test', base_url: 'http://127.0.0.1:9/v1', token: 't' },
      env: {},
      tools: [lookup],
    });
    const run = runMission(opened, { inputs: { country: 7 }, journal: false });
    await expect(run.result).rejects.toThrow(
      new UsageError('inputs of mission "look" are invalid: /country: must be string'),
    );
  });

  it('rejects a run of a project with errors, carrying its diagnostics', async () => {
    const opened = await openProject(await project('tools.lookup'), { env: {} });
    const outcome = await runMission(opened, { journal: false }).result.catch((error) => error);
    expect(outcome).toBeInstanceOf(ConfigError);
    expect((outcome as ConfigError).diagnostics.map((diagnostic) => diagnostic.message)).toEqual([
      'unknown tool "lookup" in tools',
    ]);
  });
});
