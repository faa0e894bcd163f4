/**
 * `sortie worker`'s spans: one `process` span per job it takes (OpenTelemetry's messaging
 * conventions, kind CONSUMER), a child of the item's span in the run's trace through the W3C
 * trace context the job carries. The item's commander, model requests and tool calls are spans
 * the run process exports, built from the events the worker relays to it; the worker adds what
 * only it knows: which worker ran the try (its resource, its tag), when it took it and how long
 * it held it. A job without trace context (its run exports no traces) gets no span.
 */
import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  defaultTextMapGetter,
  type Span,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import type { ItemJobData, ItemJobResult } from '../actors/queue/index.ts';
import { QUEUE_NAME, jobIdOf } from '../actors/queue/queue-keys.ts';
import { openOtlpProvider } from './otlp-provider.ts';
import type { TraceSettings } from './settings.ts';

/** The worker's side of the trace export, fed the queue worker's job notices. */
export interface JobTraces {
  started(data: ItemJobData): void;
  settled(data: ItemJobData, result: ItemJobResult | Error): void;
  handedBack(data: ItemJobData): void;
  /** Ends the spans still open and sends the last ones, waiting at most the export timeout. */
  close(): Promise<void>;
}

function jobIdOfData(data: ItemJobData): string {
  return jobIdOf(data.runId, data.task, data.index, data.attempt);
}

/** Opens the worker's export; `warn` gets at most one line. `tag` names the worker. */
export function openJobTraces(
  settings: TraceSettings,
  warn: (message: string) => void,
  tag: string,
): JobTraces {
  const otlp = openOtlpProvider(settings, warn);
  const propagator = new W3CTraceContextPropagator();
  const open = new Map<string, Span>();

  function end(
    data: ItemJobData,
    status: string,
    failure?: { message: string; type: string },
  ): void {
    const id = jobIdOfData(data);
    const span = open.get(id);
    if (span === undefined) return;
    open.delete(id);
    span.setAttribute('sortie.item.status', status);
    if (failure !== undefined) {
      // The reason is on the item's span, redacted by the run; here only that it failed.
      span.setAttribute('error.type', failure.type);
      span.setStatus({ code: SpanStatusCode.ERROR, message: failure.message });
    }
    span.end();
  }

  return {
    started(data) {
      if (data.traceparent === undefined) return;
      const parent = propagator.extract(
        ROOT_CONTEXT,
        { traceparent: data.traceparent },
        defaultTextMapGetter,
      );
      const span = otlp.tracer.startSpan(
        `process ${QUEUE_NAME}`,
        {
          kind: SpanKind.CONSUMER,
          attributes: {
            'messaging.system': 'bullmq',
            'messaging.operation.type': 'process',
            'messaging.operation.name': 'process',
            'messaging.destination.name': QUEUE_NAME,
            'messaging.message.id': jobIdOfData(data),
            'sortie.run.id': data.runId,
            'sortie.task.name': data.task,
            'sortie.item.index': data.index,
            'sortie.item.attempt': data.attempt,
            'sortie.worker.tag': tag,
          },
        },
        parent,
      );
      open.set(jobIdOfData(data), span);
    },
    settled(data, result) {
      if (result instanceof Error) {
        end(data, 'error', { message: 'the worker could not run the item', type: result.name });
      } else if (result.outcome.status === 'failed') {
        end(data, 'failed', { message: 'the item failed', type: 'item_failed' });
      } else end(data, 'succeeded');
    },
    handedBack(data) {
      end(data, 'handed_back');
    },
    async close() {
      for (const span of open.values()) span.end();
      open.clear();
      await otlp.close();
    },
  };
}
