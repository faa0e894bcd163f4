/**
 * Traces of a library run (`runMission` from the package's entry): the `otel` option and the
 * OpenTelemetry variables, against an OTLP receiver on loopback.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openProject, runMission, type Project } from '../../src/index.ts';
import { startOtlpReceiver, type OtlpReceiver } from '../observe/otlp-receiver.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';

const HELLO_MOCK = `commander:greet:
  - tool: set_subtasks
    arguments: { subtasks: [Greet] }
    usage: { input: 30, output: 3 }
  - tool: complete_subtask
    usage: { input: 40, output: 4 }
  - tool: task_complete
    arguments: { summary: Greeted }
    usage: { input: 50, output: 5 }
`;

let receiver: OtlpReceiver;
let project: Project;
let dir: string;
let mockModel: string;
const saved = { ...process.env };

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  dir = await temporaryDirectory('library-otel');
  mockModel = join(dir, 'mock.yaml');
  await writeFile(mockModel, HELLO_MOCK);
  project = await openProject('examples/hello');
});

afterEach(() => {
  receiver.spans.length = 0;
  receiver.bodies.length = 0;
  for (const name of ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_SERVICE_NAME']) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

afterAll(async () => {
  await receiver?.close();
});

/** Runs examples/hello with the mock answers; the run's id and status. */
async function runHello(otel?: boolean | { url: string }) {
  const run = runMission(project, {
    stateDir: join(dir, 'state'),
    mockModel,
    ...(otel !== undefined ? { otel } : {}),
  });
  const result = await run.result;
  return { runId: run.runId, status: result.status };
}

describe('traces of runMission', () => {
  it('sends the run to the endpoint of otel: { url }', async () => {
    const { runId, status } = await runHello({ url: receiver.url });
    expect(status).toBe('succeeded');
    const names = receiver.spans.map((span) => span.name).sort();
    expect(names).toEqual([
      'chat gpt-4o-mini',
      'chat gpt-4o-mini',
      'chat gpt-4o-mini',
      'execute_tool complete_subtask',
      'execute_tool set_subtasks',
      'execute_tool task_complete',
      'invoke_agent commander',
      'invoke_workflow hello',
      'sortie run hello',
      'task greet',
    ]);
    const root = receiver.spans.find((span) => span.name === 'sortie run hello');
    expect(root?.attributes['sortie.run.id']).toBe(runId);
    expect(root?.attributes['sortie.usage.input_tokens']).toBe(120);
    expect(new Set(receiver.spans.map((span) => span.traceId)).size).toBe(1);
  });

  it('follows the OpenTelemetry variables when the option is left out', async () => {
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = receiver.url;
    process.env.OTEL_SERVICE_NAME = 'library-tests';
    const { runId } = await runHello();
    const root = receiver.spans.find((span) => span.name === 'sortie run hello');
    expect(root?.attributes['sortie.run.id']).toBe(runId);
    expect(root?.resource['service.name']).toBe('library-tests');
  });

  it('sends nothing with otel: false, whatever the variables say', async () => {
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = receiver.url;
    const { status } = await runHello(false);
    expect(status).toBe('succeeded');
    expect(receiver.bodies).toEqual([]);
  });
});

describe('a library run without traces (child process)', () => {
  it('loads no OpenTelemetry module without the option or the variables', async () => {
    const { runChild, ROOT } = await import('../e2e/cli-child.ts');
    const refuse = join(ROOT, 'test/fixtures/observe/refuse-opentelemetry.mjs');
    const script = join(ROOT, 'test/fixtures/observe/library-run.ts');
    const args = ['--import', refuse, '--import', 'tsx', script, mockModel, join(dir, 'child')];
    const quiet = await runChild(process.execPath, args, {
      OTEL_EXPORTER_OTLP_ENDPOINT: undefined,
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: undefined,
    });
    expect(quiet).toMatchObject({ status: 0, stdout: 'succeeded\n', stderr: '' });
    // The hook does fail a run that loads one.
    const traced = await runChild(process.execPath, args, {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    });
    expect(traced.status).not.toBe(0);
    expect(traced.stderr).toContain('an OpenTelemetry module was loaded: @opentelemetry/');
  }, 120_000);
});
