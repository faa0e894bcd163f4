/**
 * Issue 29 item 3 through the real CLI: an SDK server whose tool samples. With
 * `sampling = true` the calling agent's model (the scripted server) answers it: the sample's
 * text comes from the script, and its tokens and cost are the agent's (its `model.response`
 * events, the task's totals in `sortie show`). Without it the server sees a decline.
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
import { modelArgs, workerProject, WORKER as AGENT, outputsOf } from './cli-mcp-harness.ts';

afterEach(cleanUpAll);

const SERVER = join(import.meta.dirname, '../fixtures/mcp/sampling-server.mjs');

async function runSummary(samplingLine: string) {
  const dir = await temporaryDirectory('mcp-sample');
  const stateDir = join(dir, 'state');
  const sample = { ...reply(AGENT, 'The tide rose.'), usage: { input: 1000, output: 200 } };
  const model = await startModelServer(
    delegatingTask(
      'work',
      'worker',
      [
        { ...call(AGENT, 'mcp_sampler_summarise', {}), usage: { input: 10, output: 2 } },
        ...(samplingLine === '' ? [] : [sample]),
        { ...reply(AGENT, 'Summarised.'), usage: { input: 10, output: 2 } },
      ],
      'Worked',
    ),
  );
  const project = await writeProject(
    workerProject(
      `mcp "sampler" {\n  command = "node"\n  args    = ["${SERVER}"]\n${samplingLine}}\n`,
      '[mcp.sampler.summarise]',
    ),
  );
  const run = await sortie(['run', project, '--json', ...modelArgs(model, stateDir)]);
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  model.assertDone();
  const agentRequests = model.requests.filter((request) => request.actor === AGENT);
  const events = jsonLines(run.stdout);
  return { agentRequests, events, project, stateDir, model };
}

describe('MCP sampling through the CLI', () => {
  it('answers with the agent model when the block allows it, counting the turn on the agent', async () => {
    const { agentRequests, events, project, stateDir, model } =
      await runSummary('  sampling = true\n');
    expect(agentRequests).toHaveLength(3);
    const sampled = agentRequests[1]!.body as Record<string, unknown>;
    expect({
      instructions: sampled.instructions,
      input: sampled.input,
      tools: sampled.tools,
      max_output_tokens: sampled.max_output_tokens,
    }).toEqual({
      instructions: 'You summarise in five words.',
      input: [
        {
          type: 'message',
          role: 'user',
          content: [{ type: 'input_text', text: 'Summarise: the tide rose.' }],
        },
      ],
      tools: undefined,
      max_output_tokens: 50,
    });
    expect(outputsOf(agentRequests[2]!.body)).toEqual([
      JSON.stringify({
        announced: true,
        result: {
          model: 'gpt-4o-mini',
          stopReason: 'endTurn',
          role: 'assistant',
          content: { type: 'text', text: 'The tide rose.' },
        },
      }),
    ]);
    const responses = events.filter(
      (event) => event.type === 'model.response' && event.actor === AGENT,
    );
    const usage = (input: number, output: number) => ({
      input,
      output,
      cacheRead: 0,
      cacheWrite: 0,
      reasoning: 0,
    });
    // gpt-4o-mini: $0.15 per million input tokens, $0.60 per million output tokens.
    expect(responses.map((event) => [event.usage, event.costPico])).toEqual([
      [usage(10, 2), '2700000'],
      [usage(1000, 200), '270000000'],
      [usage(10, 2), '2700000'],
    ]);
    const runId = String(events.find((event) => event.type === 'run.started')?.runId);
    const show = await sortie(['show', runId, project, '--state-dir', stateDir]);
    expect(show.stderr).toBe('');
    // 1,224 tokens: the sample's 1,200 and the agent's own two turns' 24 (the commander's: none).
    const spending = show.stdout
      .split('\n')
      .filter((line) => line.includes('tokens'))
      .map((line) => line.replace(/\b\d+(\.\d+)?m?s\b/, 'TIME'));
    expect(spending).toEqual([
      expect.stringMatching(/ · TIME · 1,224 tokens · \$0\.0003$/),
      '  work  succeeded  TIME  1,224 tokens  $0.0003',
      '  main.gpt_4o_mini  gpt-4o-mini  7 turns  1,224 tokens  $0.0003',
    ]);
    // The sample is no fork point: a fork could not replay the server's request it answered.
    const [own, sample, last] = responses.map((event) => Number(event.seq));
    const result = events.find((event) => event.type === 'tool.completed' && event.actor === AGENT);
    const agentPoints = show.stdout.split('\n').find((line) => line.startsWith(`  ${AGENT} `));
    expect(agentPoints?.replace(/ +/g, ' ')).toBe(
      ` ${AGENT} replies ${own} ${last} · result ${String(result?.seq)}`,
    );
    const fork = await sortie([
      'fork',
      runId,
      project,
      '--at',
      String(sample),
      ...modelArgs(model, stateDir),
    ]);
    expect([fork.status, fork.stderr.split('\n')[0]]).toEqual([
      2,
      `error: event ${sample} of run ${runId} is model.response (${AGENT}), a reply to an MCP server's sampling request; a fork starts at a model response, a tool result or a mission's start`,
    ]);
  }, 120_000);

  it('declines with a clear error when the block does not allow it', async () => {
    const { agentRequests } = await runSummary('');
    expect(agentRequests).toHaveLength(2);
    expect(outputsOf(agentRequests[1]!.body)).toEqual([
      JSON.stringify({
        announced: false,
        error: {
          code: -1,
          message:
            'MCP error -1: mcp "sampler" may not use the agent\'s model: set sampling = true in its mcp block to allow it',
        },
      }),
    ]);
  }, 120_000);
});
