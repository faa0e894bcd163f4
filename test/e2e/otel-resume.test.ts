/**
 * A run killed with `kill -9` and resumed with traces on: the resumed session is a trace of its
 * own whose root links to the killed session's root; `sortie export` sends both sessions (the
 * killed one ended where its journal stops, as failed) and the resumed one as the live export
 * sent it.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionTraceId, spanIdOf } from '../../src/observe/span-ids.ts';
import { startOtlpReceiver, type OtlpReceiver } from '../observe/otlp-receiver.ts';
import { CLI_ENV, ROOT } from './cli-child.ts';
import { comparable, sortieWith, sorted, tracedProject } from './otel-harness.ts';

const MOCK = `commander:greet:
  - tool: set_subtasks
    arguments: { subtasks: [Ask the greeter] }
  - tool: call_agent
    arguments: { name: greeter, task: Greet. }
  - tool: complete_subtask
  - tool: task_complete
    arguments: { summary: Greeted }
agent:*/greeter:
  - text: Hello!
    usage: { input: 100, output: 20 }
`;

/** Runs `sortie run --json` and kills it with SIGKILL after `lines` event lines; the run id. */
function runKilled(args: string[], lines: number): Promise<string> {
  const child = spawn(process.execPath, ['bin/sortie.js', ...args, '--json'], {
    cwd: ROOT,
    env: { ...process.env, ...CLI_ENV },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let seen = 0;
  let pending = '';
  let runId = '';
  child.stdout.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    const complete = pending.split('\n');
    pending = complete.pop() ?? '';
    for (const line of complete) {
      if (seen === 0) runId = (JSON.parse(line) as { runId: string }).runId;
      seen += 1;
      if (seen === lines) child.kill('SIGKILL');
    }
  });
  return new Promise((resolve) => child.on('exit', () => resolve(runId)));
}

describe('traces of a run resumed after kill -9 (child processes)', { timeout: 180_000 }, () => {
  const project = tracedProject();
  const mock = join(project.directory, 'hello.yaml');
  let live: OtlpReceiver;
  let exported: OtlpReceiver;
  let runId = '';
  let resumedStatus: number | null = null;

  beforeAll(async () => {
    writeFileSync(mock, MOCK);
    live = await startOtlpReceiver();
    exported = await startOtlpReceiver();
    const flags = ['--mock-model', mock, '--state-dir', project.stateDir];
    runId = await runKilled(['run', 'examples/hello', ...flags], 6);
    const resumed = await sortieWith(['resume', runId, 'examples/hello', ...flags, '--quiet'], {
      OTEL_EXPORTER_OTLP_ENDPOINT: live.url,
    });
    resumedStatus = resumed.status;
    await sortieWith(
      ['export', runId, '--state-dir', project.stateDir, '--otlp', exported.url],
      {},
    );
  }, 150_000);

  afterAll(async () => {
    await live?.close();
    await exported?.close();
  });

  it('sends the resumed session as its own trace, linked to the killed session', () => {
    expect(resumedStatus).toBe(0);
    const traces = new Set(live.spans.map((span) => span.traceId));
    expect(traces.size).toBe(1);
    const root = live.spans.find((span) => span.parentSpanId === '');
    expect(root?.attributes['sortie.run.resumed']).toBe(true);
    const earlier = sessionTraceId(runId, 1);
    expect(root?.links).toEqual([
      {
        traceId: earlier,
        spanId: spanIdOf(earlier, 'run'),
        attributes: { 'sortie.link': 'resumed_from' },
      },
    ]);
    expect(root?.traceId).toBe(
      sessionTraceId(runId, Number(root?.attributes['sortie.run.session_seq'])),
    );
  });

  it('exports both sessions from the journal: the killed one ended as stopped, the resumed one as sent live', () => {
    const killedTrace = sessionTraceId(runId, 1);
    const killedRoot = exported.spans.find(
      (span) => span.traceId === killedTrace && span.parentSpanId === '',
    );
    expect(killedRoot?.spanId).toBe(spanIdOf(killedTrace, 'run'));
    expect(killedRoot?.status).toEqual({ code: 2, message: 'the run stopped before it finished' });
    const resumed = exported.spans.filter((span) => span.traceId !== killedTrace);
    expect(sorted(resumed).map(comparable)).toEqual(sorted(live.spans).map(comparable));
  });
});
