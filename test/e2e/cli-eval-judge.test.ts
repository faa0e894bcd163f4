/**
 * `sortie eval` against the scripted model server: two variants whose greeter models differ
 * (gpt-4o answers "Hello, Ada!", gpt-4o-mini "Hi."), judged by a scripted judge that scores a
 * greeting naming Ada 0.9 and any other 0.1.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ScriptedModelServer, type ScriptTurn } from '../../src/testing/index.ts';
import { ROOT } from './cli-child.ts';
import { sortieEval, withoutRunIdsAndTimes } from './eval-harness.ts';
import { temporaryDirectorySync } from '../helpers/temp-dir.ts';

const EVAL = `eval "models" {
  mission     = "hello"
  repeat      = 2
  concurrency = 2

  case "ada" {
    inputs = { name = "Ada" }
  }

  variant "mini" {}
  variant "big" {
    agent_models = { greeter = models.openai.gpt_4o }
  }

  expect "judge" {
    model     = models.openai.gpt_4o_mini
    rubric    = load("rubric.md")
    threshold = 0.5
  }
}
`;

/** Answers every request from what it holds, so any number of runs get the same answers. */
function respond(request: {
  actor: string | undefined;
  summary: { model: string; allText: string };
  body: unknown;
}): ScriptTurn | undefined {
  const { actor, summary } = request;
  const named = summary.allText.includes('Hello, Ada!');
  if (actor === 'judge') {
    const verdict = named
      ? { score: 0.9, reason: 'greets Ada by name' }
      : { score: 0.1, reason: 'does not name Ada' };
    return { text: JSON.stringify(verdict), usage: { input: 200, output: 20 } };
  }
  if (actor === 'agent:greet/greeter') {
    return { text: summary.model === 'gpt-4o' ? 'Hello, Ada!' : 'Hi.' };
  }
  const input = (request.body as { input?: Array<{ type?: string }> }).input ?? [];
  const results = input.filter((item) => item.type === 'function_call_output').length;
  const calls = [
    { name: 'set_subtasks', arguments: { subtasks: ['Greet Ada'] } },
    { name: 'call_agent', arguments: { name: 'greeter', task: 'Greet Ada' } },
    { name: 'complete_subtask', arguments: {} },
    { name: 'task_complete', arguments: { summary: named ? 'Hello, Ada!' : 'Hi.' } },
  ];
  const call = calls[results];
  return call === undefined ? undefined : { toolCalls: [call] };
}

let server: ScriptedModelServer | undefined;
afterEach(() => server?.close());

/** A project whose openai models talk to `base_url`, with the eval and its rubric. */
function judgedProject(): string {
  const root = temporaryDirectorySync('eval-judge');
  const hello = readFileSync(join(ROOT, 'examples/hello/main.hcl'), 'utf8');
  writeFileSync(
    join(root, 'main.hcl'),
    hello.replace(
      'api_key  = vars.openai_api_key',
      'api_key  = vars.openai_api_key\n  base_url = vars.openai_base_url',
    ) + '\nvariable "openai_base_url" {}\n',
  );
  mkdirSync(join(root, '.evals'));
  writeFileSync(join(root, '.evals', 'models.hcl'), EVAL);
  writeFileSync(join(root, '.evals', 'rubric.md'), 'The greeting names the person.\n');
  return root;
}

/** A JSON report with run ids and durations (the only figures a replay changes) masked. */
function comparableReport(path: string): unknown {
  const text = readFileSync(path, 'utf8').replace(/\d{8}T\d{9}Z-[0-9a-f]{6}/g, 'RUN');
  return JSON.parse(text, (key, value: unknown) =>
    key === 'durationSeconds' ? 'DURATION' : value,
  );
}

describe('sortie eval with the scripted model server and a judge', { timeout: 120_000 }, () => {
  it('scores variants whose models answer differently, keeping the verdicts and the judge spend apart', async () => {
    server = await ScriptedModelServer.start({ turns: [], respond });
    const root = judgedProject();
    const json = join(root, 'report.json');
    const result = await sortieEval([
      'eval',
      root,
      '--var',
      `openai_base_url=${server.baseUrl('openai')}`,
      '--var',
      'openai_api_key=test',
      '--state-dir',
      join(root, 'state'),
      '--json',
      json,
    ]);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(1);
    const text = withoutRunIdsAndTimes(result.stdout);
    expect(text).toContain('ada   0/2 0% ✗ (needs 100%)  2/2 100% ✓\n');
    expect(text).toContain(
      '  mini · ada · repeat 1 · run RUN: judge ≥ 0.5 (openai.gpt_4o_mini) — seen score 0.1: does not name Ada\n',
    );
    expect(text).toContain('· judge $0.0001, 440 tokens\n');
    const report = JSON.parse(readFileSync(json, 'utf8')) as {
      evals: Array<{
        runs: Array<{ variant: string; judge: unknown; results: Array<{ judge?: unknown }> }>;
      }>;
    };
    const big = report.evals[0]?.runs.find((run) => run.variant === 'big');
    expect(big?.results.at(-1)?.judge).toEqual({
      score: 0.9,
      reason: 'greets Ada by name',
      tokens: 220,
      costDollars: 0.000042,
    });
    expect(big?.judge).toEqual({ tokens: 220, costDollars: 0.000042 });
    const judged = server.requests.filter((request) => request.actor === 'judge');
    expect(judged.map((request) => (request.body as { model: string }).model)).toEqual([
      'gpt-4o-mini',
      'gpt-4o-mini',
      'gpt-4o-mini',
      'gpt-4o-mini',
    ]);
  });

  it('records the judge with the run and replays the same report with the server stopped', async () => {
    server = await ScriptedModelServer.start({ turns: [], respond });
    const root = judgedProject();
    const cassettes = join(root, 'cassettes');
    const common = [
      'eval',
      root,
      '--var',
      'openai_api_key=test',
      '--state-dir',
      join(root, 'state'),
    ];
    const baseUrl = `openai_base_url=${server.baseUrl('openai')}`;
    const recorded = await sortieEval([
      ...common,
      '--var',
      baseUrl,
      '--record',
      cassettes,
      '--json',
      join(root, 'recorded.json'),
    ]);
    expect(recorded.stderr).toBe('');
    expect(recorded.status).toBe(1);
    const asked = server.requests.length;
    await server.close();
    server = undefined;
    const replayed = await sortieEval([
      ...common,
      '--var',
      baseUrl,
      '--replay-model',
      cassettes,
      '--json',
      join(root, 'replayed.json'),
    ]);
    expect(replayed.stderr).toBe('');
    expect(replayed.status).toBe(1);
    expect(asked).toBe(24);
    const report = comparableReport(join(root, 'replayed.json'));
    expect(report).toEqual(comparableReport(join(root, 'recorded.json')));
    const runs = (report as { evals: Array<{ runs: Array<{ key: string; judge: unknown }> }> })
      .evals[0]?.runs;
    expect(runs?.map((run) => [run.key, run.judge])).toEqual([
      ['mini/ada/1', { tokens: 220, costDollars: 0.000042 }],
      ['mini/ada/2', { tokens: 220, costDollars: 0.000042 }],
      ['big/ada/1', { tokens: 220, costDollars: 0.000042 }],
      ['big/ada/2', { tokens: 220, costDollars: 0.000042 }],
    ]);
    const cassette = readFileSync(join(cassettes, 'big', 'ada', '1.jsonl'), 'utf8');
    expect(cassette.match(/"actor":"judge"/g)).toHaveLength(1);
  });
});
