/**
 * `sortie run` with the OpenTelemetry variables set, against an OTLP receiver on loopback: the
 * span tree, names, kinds and GenAI attributes of a routed mission with a parallel iterated
 * task, a tool error and a failed task; token and cost sums equal the run's; no secret in any
 * byte sent; `sortie export` of the journal sends the same spans (protobuf live, JSON export).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MissionEvent } from '../../src/base/events.ts';
import {
  startOtlpReceiver,
  type OtlpReceiver,
  type ReceivedSpan,
} from '../observe/otlp-receiver.ts';
import { leakForms } from './agent-tools-harness.ts';
import {
  PROTECTED,
  SECRET,
  comparable,
  sortieWith,
  sorted,
  tracedProject,
} from './otel-harness.ts';

const project = tracedProject();
let live: OtlpReceiver;
let exported: OtlpReceiver;
let runId = '';
let runStatus: number | null = null;
let runStderr = '';
let exportResult: { status: number | null; stdout: string; stderr: string };

function byName(spans: readonly ReceivedSpan[], name: string): ReceivedSpan[] {
  return spans.filter((span) => span.name === name);
}

function one(spans: readonly ReceivedSpan[], name: string): ReceivedSpan {
  const found = byName(spans, name);
  expect(found.map((span) => span.name)).toEqual([name]);
  return found[0]!;
}

function parentName(spans: readonly ReceivedSpan[], span: ReceivedSpan): string {
  return spans.find((candidate) => candidate.spanId === span.parentSpanId)?.name ?? '(none)';
}

describe('OpenTelemetry traces of sortie run (child processes)', { timeout: 180_000 }, () => {
  beforeAll(async () => {
    live = await startOtlpReceiver();
    exported = await startOtlpReceiver();
    const run = await sortieWith(
      [
        'run',
        project.directory,
        '--mock-model',
        project.mock,
        '--state-dir',
        project.stateDir,
        '--plain',
        '--quiet',
        '--keep-going',
        '--var',
        `token=${SECRET}`,
        '--input',
        `code=${PROTECTED}`,
      ],
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: live.url,
        OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'true',
        OTEL_SERVICE_NAME: 'traced-tests',
        OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=test',
      },
    );
    runStatus = run.status;
    runStderr = run.stderr;
    runId = /run (\S+) failed/.exec(run.stderr)?.[1] ?? '';
    exportResult = await sortieWith(
      ['export', runId, project.directory, '--state-dir', project.stateDir, '--otlp', exported.url],
      {
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'true',
        OTEL_SERVICE_NAME: 'traced-tests',
        OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=test',
      },
    );
  }, 120_000);

  afterAll(async () => {
    await live?.close();
    await exported?.close();
  });

  it('runs the mission as usual (its failed task fails it) and sends protobuf', () => {
    expect(runStatus).toBe(1);
    expect(runStderr).not.toContain('warning');
    expect(new Set(live.contentTypes)).toEqual(new Set(['application/x-protobuf']));
  });

  it('sends one trace: the run, its mission, tasks, items, agents, chats and tools', () => {
    const spans = live.spans;
    expect(new Set(spans.map((span) => span.traceId)).size).toBe(1);
    const root = one(spans, 'sortie run traced');
    expect(root.parentSpanId).toBe('');
    expect(root.status).toEqual({ code: 2, message: 'the run failed' });
    expect(root.resource['service.name']).toBe('traced-tests');
    expect(root.resource['deployment.environment']).toBe('test');
    expect(parentName(spans, one(spans, 'invoke_workflow traced'))).toBe('sortie run traced');
    for (const task of ['pick', 'score', 'skip', 'doomed']) {
      expect(parentName(spans, one(spans, `task ${task}`))).toBe('invoke_workflow traced');
    }
    expect(byName(spans, 'item score[0]').map((span) => parentName(spans, span))).toEqual([
      'task score',
    ]);
    expect(byName(spans, 'item score[1]').map((span) => parentName(spans, span))).toEqual([
      'task score',
    ]);
    const commanders = byName(spans, 'invoke_agent commander').map((span) => [
      span.attributes['gen_ai.agent.id'],
      parentName(spans, span),
    ]);
    expect(commanders.sort()).toEqual([
      ['commander:doomed', 'task doomed'],
      ['commander:pick', 'task pick'],
      ['commander:score[0]', 'item score[0]'],
      ['commander:score[1]', 'item score[1]'],
    ]);
    expect(parentName(spans, one(spans, 'invoke_agent helper'))).toBe('invoke_agent commander');
    // Every span but the root hangs under a span that was sent.
    const ids = new Set(spans.map((span) => span.spanId));
    expect(spans.filter((span) => span.parentSpanId !== '' && !ids.has(span.parentSpanId))).toEqual(
      [],
    );
    const kinds = new Set(spans.map((span) => `${span.name.split(' ')[0]}:${span.kind}`));
    expect([...kinds].sort()).toEqual([
      'chat:3',
      'execute_tool:1',
      'invoke_agent:1',
      'invoke_workflow:1',
      'item:1',
      'sortie:1',
      'task:1',
    ]);
  });

  it('sets the GenAI attributes of chats and tools, the route, the skip and the failures', () => {
    const spans = live.spans;
    const helperChat = spans.find(
      (span) =>
        span.name === 'chat gpt-4o-mini' &&
        span.attributes['gen_ai.conversation.id'] === 'agent:pick/helper',
    );
    expect(helperChat?.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-4o-mini',
      'gen_ai.response.model': 'gpt-4o-mini',
      'gen_ai.usage.input_tokens': 50,
      'gen_ai.usage.output_tokens': 10,
      'gen_ai.usage.cache_read.input_tokens': 0,
      'gen_ai.usage.cache_creation.input_tokens': 0,
      'gen_ai.response.finish_reasons': ['stop'],
    });
    const toolError = spans.find(
      (span) => span.name === 'execute_tool call_agent' && span.status.code === 2,
    );
    expect(toolError?.attributes).toMatchObject({
      'gen_ai.tool.name': 'call_agent',
      'gen_ai.tool.type': 'function',
      'error.type': 'tool_error',
    });
    expect(typeof toolError?.attributes['gen_ai.tool.call.id']).toBe('string');
    expect(one(spans, 'task pick').attributes).toMatchObject({
      'sortie.task.status': 'succeeded',
      'sortie.task.route': 'score',
    });
    expect(one(spans, 'task skip').attributes).toMatchObject({
      'sortie.task.status': 'skipped',
      'sortie.reason': 'not_activated',
    });
    const doomed = one(spans, 'task doomed');
    expect(doomed.attributes['sortie.task.status']).toBe('failed');
    expect(doomed.status.code).toBe(2);
    expect(doomed.status.message).toContain('no mock answer for commander:doomed');
    expect(one(spans, 'item score[0]').attributes).toMatchObject({
      'sortie.item.status': 'succeeded',
      'sortie.item.index': 0,
      'sortie.item.attempt': 1,
    });
  });

  it('sums tokens and costs over the chat spans to the run totals sortie show reports', async () => {
    const chats = live.spans.filter((span) => span.attributes['gen_ai.operation.name'] === 'chat');
    const tokens = chats.reduce(
      (sum, span) =>
        sum +
        Number(span.attributes['gen_ai.usage.input_tokens'] ?? 0) +
        Number(span.attributes['gen_ai.usage.output_tokens'] ?? 0),
      0,
    );
    const show = await sortieWith(
      ['show', runId, project.directory, '--state-dir', project.stateDir],
      {},
    );
    const shown = new RegExp(`\\d+ turns\\s+${tokens.toLocaleString('en-US')} tokens`);
    expect(show.stdout.split('\n').filter((line) => shown.test(line))).toHaveLength(1);
    const journal = readFileSync(join(project.stateDir, 'runs', runId, 'journal.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as MissionEvent);
    const finished = journal.find((event) => event.type === 'run.finished');
    const runDollars = Number(finished?.type === 'run.finished' ? finished.costPico : 'NaN') / 1e12;
    const chatDollars = chats.reduce(
      (sum, span) => sum + Number(span.attributes['sortie.cost.usd'] ?? 0),
      0,
    );
    expect(chatDollars).toBeCloseTo(runDollars, 12);
    expect(one(live.spans, 'sortie run traced').attributes['sortie.cost.usd']).toBeCloseTo(
      runDollars,
      12,
    );
    expect(chats.length).toBe(journal.filter((event) => event.type === 'model.request').length);
  });

  it('captures content when asked, with the secret and the protected input masked in every byte', () => {
    const helperChat = live.spans.find(
      (span) => span.attributes['gen_ai.conversation.id'] === 'agent:pick/helper',
    );
    expect(String(helperChat?.attributes['gen_ai.output.messages'])).toContain('The token is ••••');
    for (const body of [...live.bodies, ...exported.bodies]) {
      const text = body.toString('latin1');
      for (const form of [...leakForms(SECRET), ...leakForms(PROTECTED)]) {
        expect(text.includes(form)).toBe(false);
      }
    }
  });

  it('sends the same spans from the journal with sortie export (JSON this time)', () => {
    expect(exportResult.stderr).toBe('');
    expect(exportResult.status).toBe(0);
    expect(exportResult.stdout).toMatch(
      new RegExp(`^run ${runId}: \\d+ events as 1 trace to ${exported.url}\\n$`),
    );
    expect(new Set(exported.contentTypes)).toEqual(new Set(['application/json']));
    expect(exported.spans.length).toBe(live.spans.length);
    expect(sorted(exported.spans).map(comparable)).toEqual(sorted(live.spans).map(comparable));
  });
});
