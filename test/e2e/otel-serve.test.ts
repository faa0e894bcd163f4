/**
 * `sortie serve` with the OpenTelemetry variables: a webhook-started run's trace arrives at an
 * OTLP receiver on loopback, its protected input in no byte sent; without the variables a
 * served run loads no OpenTelemetry module (a module hook would fail it).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { ScriptedModelServer } from '../../src/testing/index.ts';
import { startOtlpReceiver, type OtlpReceiver } from '../observe/otlp-receiver.ts';
import { builtCli } from './built-cli.ts';
import { ROOT } from './cli-child.ts';
import {
  api,
  HOOK_SECRET,
  PROTECTED_VALUE,
  serveFreshProject,
  startServedModel,
  stopServe,
} from './serve-harness.ts';

const REFUSE = join(ROOT, 'test/fixtures/observe/refuse-opentelemetry.mjs');

let model: ScriptedModelServer;
let receiver: OtlpReceiver;

beforeAll(async () => {
  await builtCli();
  model = await startServedModel();
  receiver = await startOtlpReceiver();
}, 240_000);

afterAll(async () => {
  await model?.close();
  await receiver?.close();
});

/** A server of a fresh project with `env`; a webhook run of `greet`, awaited to its end. */
async function serveAndHook(env: Record<string, string | undefined>) {
  const { served } = await serveFreshProject(model, [], env);
  // Stopped before the test's folders go (onTestFinished runs its callbacks last first).
  onTestFinished(() => stopServe(served));
  const posted = await api(served, 'POST', '/webhooks/hooks/greet', {
    body: { name: 'Ada', token: PROTECTED_VALUE },
    headers: { 'x-webhook-secret': HOOK_SECRET },
  });
  expect(posted.status).toBe(202);
  const runId = String(posted.body.run_id);
  const ended = await served.line(new RegExp(`^run ${runId} (succeeded|failed|cancelled|could)`));
  return { served, runId, ended };
}

describe('traces of sortie serve (built CLI)', { timeout: 240_000 }, () => {
  it("sends a webhook-started run's trace", async () => {
    const { served, runId, ended } = await serveAndHook({
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_SERVICE_NAME: 'served',
    });
    expect(ended).toBe(`run ${runId} succeeded · mission greet`);
    // The run's end is logged once its last spans are sent.
    const spans = receiver.spans;
    const root = spans.find((span) => span.name === 'sortie run greet');
    expect(root?.attributes['sortie.run.id']).toBe(runId);
    expect(root?.resource['service.name']).toBe('served');
    expect(spans.filter((span) => span.name === 'chat gpt-4o-mini')).toHaveLength(4);
    expect(spans.find((span) => span.name === 'task hello')?.attributes['sortie.task.status']).toBe(
      'succeeded',
    );
    expect(new Set(spans.map((span) => span.traceId))).toEqual(new Set([root?.traceId]));
    for (const body of receiver.bodies) expect(body.includes(PROTECTED_VALUE)).toBe(false);
    expect(served.stderr()).toBe('');
    expect(served.lines.filter((line) => line.startsWith('warning'))).toEqual([]);
  });

  it('loads no OpenTelemetry module for a served run without the variables', async () => {
    const { runId, ended } = await serveAndHook({
      OTEL_EXPORTER_OTLP_ENDPOINT: undefined,
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: undefined,
      NODE_OPTIONS: `--import ${REFUSE}`,
    });
    expect(ended).toBe(`run ${runId} succeeded · mission greet`);
  });

  it('loads them (and so the hook fails the run) once an endpoint is set', async () => {
    const { runId, ended } = await serveAndHook({
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      NODE_OPTIONS: `--import ${REFUSE}`,
    });
    expect(ended).toContain(`run ${runId} could not run: `);
    expect(ended).toContain('an OpenTelemetry module was loaded: @opentelemetry/');
  });
});
