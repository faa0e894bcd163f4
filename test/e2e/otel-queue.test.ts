/**
 * `sortie run --queue` and `sortie worker`, both with the OpenTelemetry variables, a real
 * redis-server and a real worker process: every span a worker run sends shares the run's trace
 * id, and the worker's span of each job is a child of the item's span (the job carries its W3C
 * trace context), sent from the worker with the worker's own resource.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { largeResultProject, respondToPages } from '../actors/resume/large-result-fixture.ts';
import { startOtlpReceiver, type OtlpReceiver } from '../observe/otlp-receiver.ts';
import { ROOT } from './cli-child.ts';
import { journalOf, sortie } from './cli-resume-harness.ts';
import { queueTestForFile, startWorker, stopWorker } from './queue-harness.ts';

const REFUSE = join(ROOT, 'test/fixtures/observe/refuse-opentelemetry.mjs');

let receiver: OtlpReceiver;

const queue = queueTestForFile({
  name: 'otel-queue',
  respond: respondToPages(40),
  hcl: largeResultProject(2),
});

beforeAll(async () => {
  receiver = await startOtlpReceiver();
});

afterAll(async () => {
  await receiver?.close();
});

describe(
  'traces of a run on workers (redis-server, worker processes)',
  { timeout: 180_000 },
  () => {
    it("puts every span in the run's trace, and each job's worker span under its item", async () => {
      const worker = await startWorker(queue.redis.url, queue.target, {
        env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SERVICE_NAME: 'traced-worker' },
      });
      queue.workers.push(worker);
      const run = sortie(
        ['run', queue.project, '--queue', queue.redis.url],
        queue.target,
        undefined,
        {
          OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
          OTEL_SERVICE_NAME: 'traced-run',
        },
      );
      expect(await run.exited, run.stderr()).toBe(0);
      const runId = await run.runId;
      // The worker sends its last spans when it stops.
      expect(await stopWorker(worker)).toBe(0);
      expect(worker.stderr()).not.toContain('warning');

      const spans = receiver.spans;
      const root = spans.find((span) => span.name === 'sortie run pages');
      expect(root?.attributes['sortie.run.id']).toBe(runId);
      expect(new Set(spans.map((span) => span.traceId))).toEqual(new Set([root?.traceId]));

      const processed = spans
        .filter((span) => span.name === 'process sortie-items')
        .sort(
          (a, b) =>
            Number(a.attributes['sortie.item.index']) - Number(b.attributes['sortie.item.index']),
        );
      expect(processed).toHaveLength(2);
      const journal = journalOf(queue.target.stateDir, runId);
      processed.forEach((span, index) => {
        const item = spans.find((candidate) => candidate.name === `item read[${index}]`);
        expect(span.parentSpanId).toBe(item?.spanId);
        // OTLP's SPAN_KIND_CONSUMER.
        expect(span.kind).toBe(5);
        expect(span.resource['service.name']).toBe('traced-worker');
        expect(span.status).toEqual({ code: 0, message: '' });
        const tag = span.attributes['sortie.worker.tag'];
        expect(tag).toMatch(/^w[0-9a-f]{6}$/);
        expect(span.attributes).toEqual({
          'messaging.system': 'bullmq',
          'messaging.operation.type': 'process',
          'messaging.operation.name': 'process',
          'messaging.destination.name': 'sortie-items',
          'messaging.message.id': `${runId}/read/${index}/1`,
          'sortie.run.id': runId,
          'sortie.task.name': 'read',
          'sortie.item.index': index,
          'sortie.item.attempt': 1,
          'sortie.worker.tag': tag,
          'sortie.item.status': 'succeeded',
        });
        // The item's commander ran on the worker: its spans come from the relayed events.
        const commander = spans.find(
          (candidate) =>
            candidate.name === 'invoke_agent commander' &&
            candidate.attributes['gen_ai.agent.id'] === `commander:read[${index}]`,
        );
        expect(commander?.parentSpanId).toBe(item?.spanId);
        expect(commander?.resource['service.name']).toBe('traced-run');
      });
      const chats = spans.filter((span) => span.name.startsWith('chat '));
      const requests = journal.filter((event) => event.type === 'model.request');
      expect(chats).toHaveLength(requests.length);
      expect(requests.every((event) => /^w[0-9a-f]{6}-/.test(String(event.requestId)))).toBe(true);
    });

    it('loads no OpenTelemetry module in the run or its worker without the variables', async () => {
      // A module hook fails the process that loads one (see otel-disabled.test.ts).
      const hooked = { NODE_OPTIONS: `--import ${REFUSE}` };
      const worker = await startWorker(queue.redis.url, queue.target, { env: hooked });
      queue.workers.push(worker);
      const run = sortie(
        ['run', queue.project, '--queue', queue.redis.url],
        queue.target,
        undefined,
        hooked,
      );
      const code = await run.exited;
      const events = journalOf(queue.target.stateDir, await run.runId);
      const failures = events.filter((event) => event.type.endsWith('failed'));
      expect([code, failures]).toEqual([0, []]);
      expect(await stopWorker(worker)).toBe(0);
      expect(worker.stderr()).not.toContain('OpenTelemetry');
      expect(worker.stderr()).toContain('sortie worker stopped: 2 succeeded, 0 failed');
    });
  },
);
