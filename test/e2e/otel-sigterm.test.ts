/**
 * `sortie run` with traces on, stopped by SIGTERM while a model request is in flight (the
 * scripted server holds it): the run is cancelled, and its spans reach the collector before the
 * process exits, each ended as cancelled.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedModelServer } from '../../src/testing/index.ts';
import { largeResultProject } from '../actors/resume/large-result-fixture.ts';
import { startOtlpReceiver, type OtlpReceiver } from '../observe/otlp-receiver.ts';
import { temporaryDirectorySync } from '../helpers/temp-dir.ts';
import { sortie, type Child } from './cli-resume-harness.ts';

describe('traces of a run stopped by SIGTERM (child process)', { timeout: 120_000 }, () => {
  let receiver: OtlpReceiver;
  let server: ScriptedModelServer;
  let run: Child;
  let status: number | null = null;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    server = await ScriptedModelServer.start({
      respond: () => {
        // The first request is never answered: the run is mid-request when the signal comes.
        run.process.kill('SIGTERM');
        return { text: 'never sent', heldUntil: new Promise(() => undefined) };
      },
    });
    const project = temporaryDirectorySync('otel-sigterm');
    writeFileSync(join(project, 'main.hcl'), largeResultProject(1));
    const target = { stateDir: join(project, 'state'), baseUrl: server.baseUrl('anthropic') };
    run = sortie(['run', project], target, undefined, {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    });
    status = await run.exited;
  }, 100_000);

  afterAll(async () => {
    await server?.close();
    await receiver?.close();
  });

  it('cancels the run and sends every span of it before exiting', () => {
    expect(status, run.stderr()).toBe(130);
    expect(server.requests).toHaveLength(1);
    const span = (name: string) => receiver.spans.find((each) => each.name === name);
    expect(receiver.spans.map((each) => each.name).sort()).toEqual([
      'chat claude-haiku-4-5-20251001',
      'invoke_agent commander',
      'invoke_workflow pages',
      'item read[0]',
      'sortie run pages',
      'task read',
    ]);
    const root = span('sortie run pages');
    expect(root?.parentSpanId).toBe('');
    expect(root?.attributes['sortie.run.outcome']).toBe('cancelled');
    expect(span('invoke_workflow pages')?.attributes['sortie.reason']).toBe(
      'cancelled by the user',
    );
    expect(span('task read')?.attributes['sortie.task.status']).toBe('cancelled');
    // The request in flight ended unanswered.
    expect(span('chat claude-haiku-4-5-20251001')?.status).toEqual({
      code: 2,
      message: 'no response',
    });
  });
});
