/**
 * Traces cost nothing when not asked for, and never cost a run when asked for: without the
 * variables or `--otel` no OpenTelemetry module is loaded (a module hook fails the process on the
 * first one); a collector that refuses or never answers costs one warning line, and the run
 * succeeds.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort } from '../fixtures/closed-port.ts';
import { startOtlpReceiver, type OtlpReceiver } from '../observe/otlp-receiver.ts';
import { ROOT, runChild } from './cli-child.ts';
import { tracedProject } from './otel-harness.ts';

const REFUSE = join(ROOT, 'test/fixtures/observe/refuse-opentelemetry.mjs');
const HELLO_MOCK = `commander:greet:
  - tool: set_subtasks
    arguments: { subtasks: [Greet] }
  - tool: complete_subtask
  - tool: task_complete
    arguments: { summary: Greeted }
`;

/** `sortie run examples/hello` with mock answers, under the module hook when `refuse`. */
async function runHello(env: Record<string, string | undefined>, refuse = false) {
  const { directory, stateDir } = tracedProject();
  const mock = join(directory, 'hello.yaml');
  const { writeFileSync } = await import('node:fs');
  writeFileSync(mock, HELLO_MOCK);
  const args = ['run', 'examples/hello', '--mock-model', mock, '--state-dir', stateDir, '--quiet'];
  const node = refuse ? ['--import', REFUSE] : [];
  return runChild(process.execPath, [...node, 'bin/sortie.js', ...args], {
    OTEL_EXPORTER_OTLP_ENDPOINT: undefined,
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: undefined,
    ...env,
  });
}

describe(
  'traces when not asked for, and when the collector fails (child processes)',
  { timeout: 180_000 },
  () => {
    let hung: OtlpReceiver;
    beforeAll(async () => {
      hung = await startOtlpReceiver(false);
    });
    afterAll(async () => {
      await hung?.close();
    });

    it('loads no OpenTelemetry module without the variables or --otel', async () => {
      const run = await runHello({}, true);
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
    });

    it('loads them (and so the hook fails the run) once an endpoint is set', async () => {
      const run = await runHello({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' }, true);
      expect(run.stderr).toContain('an OpenTelemetry module was loaded: @opentelemetry/');
      expect(run.status).not.toBe(0);
    });

    it('costs one warning line when the collector refuses connections, and the run succeeds', async () => {
      const url = `http://127.0.0.1:${await closedPort()}`;
      const run = await runHello({ OTEL_EXPORTER_OTLP_ENDPOINT: url });
      expect(run.status).toBe(0);
      const lines = run.stderr.split('\n').filter((line) => line !== '');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toBe(
        `warning: traces could not be sent to ${url} (connect ECONNREFUSED ${url.slice(7)})`,
      );
    });

    it('costs one warning line when the collector never answers, and the run ends', async () => {
      const run = await runHello({
        OTEL_EXPORTER_OTLP_ENDPOINT: hung.url,
        OTEL_EXPORTER_OTLP_TIMEOUT: '500',
      });
      expect(run.status).toBe(0);
      const lines = run.stderr.split('\n').filter((line) => line !== '');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toBe(
        `warning: traces could not be sent to ${hung.url} (no answer within 500 ms)`,
      );
      expect(hung.bodies.length).toBeGreaterThan(0);
    });
  },
);
