/**
 * The OpenTelemetry SDK behind the span builder: a tracer provider with sortie's ids, a batch
 * processor and the OTLP exporter of the chosen protocol, configured by the standard variables
 * (the exporters read the endpoint, headers and timeout themselves; the resource reads
 * OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES). Sending never stops or slows a run: a
 * collector that cannot be reached costs one warning, and closing waits at most the timeout.
 */
import { setGlobalErrorHandler } from '@opentelemetry/core';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import {
  defaultResource,
  detectResources,
  envDetector,
  resourceFromAttributes,
} from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import type { MissionEvent } from '../base/events.ts';
import type { TraceSettings } from './settings.ts';
import { PresetIds } from './span-ids.ts';
import { TraceBuilder } from './trace-builder.ts';
import { reasonOf } from '../base/reason.ts';

/** A span builder sending what it builds. */
export interface TraceSink {
  /** Turns an event of this process's part of the run into spans; never throws. */
  add(event: MissionEvent): void;
  /** Reads an event from before this process's part of the run (links, fork points). */
  remember(event: MissionEvent): void;
  /** Ends what is still open and sends the last spans, waiting at most the export timeout. */
  close(): Promise<void>;
}

function firstLine(error: unknown): string {
  const text = reasonOf(error);
  return text.split('\n')[0] ?? text;
}

/** Opens the export: `warn` gets at most one line, whatever goes wrong. */
export function openTraceExport(
  settings: TraceSettings,
  warn: (message: string) => void,
): TraceSink {
  let warned = false;
  const warnOnce = (message: string): void => {
    if (warned) return;
    warned = true;
    warn(message);
  };
  const where = settings.destination;
  const unsent = (why: string): void => warnOnce(`traces could not be sent to ${where} (${why})`);
  // The batch processor reports failed exports here; the run goes on either way.
  setGlobalErrorHandler((error) => unsent(firstLine(error)));
  const options = settings.url !== undefined ? { url: settings.url } : {};
  const exporter =
    settings.protocol === 'http/json' ? new JsonExporter(options) : new ProtobufExporter(options);
  const ids = new PresetIds();
  const provider = new TracerProvider({
    resource: defaultResource()
      .merge(resourceFromAttributes({ 'service.name': 'sortie' }))
      .merge(detectResources({ detectors: [envDetector] })),
    idGenerator: ids,
    // A journal's export hands over every span at once: the queue holds them rather than drop.
    spanProcessors: [new BatchSpanProcessor({ exporter, maxQueueSize: 100_000 })],
  });
  const builder = new TraceBuilder({
    tracer: provider.getTracer('sortie'),
    ids,
    captureContent: settings.captureContent,
  });
  const guarded =
    (step: (event: MissionEvent) => void) =>
    (event: MissionEvent): void => {
      try {
        step(event);
      } catch (error) {
        warnOnce(`traces stopped at event ${event.seq} (${firstLine(error)}); the run goes on`);
      }
    };
  return {
    add: guarded((event) => builder.add(event)),
    remember: guarded((event) => builder.remember(event)),
    async close() {
      try {
        builder.finish();
      } catch (error) {
        warnOnce(`traces could not be finished (${firstLine(error)})`);
      }
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), settings.flushTimeoutMs);
        timer.unref();
      });
      const shutdown = provider.shutdown().then(
        () => 'sent' as const,
        (error: unknown) => {
          unsent(firstLine(error));
          return 'sent' as const;
        },
      );
      const ended = await Promise.race([shutdown, late]);
      clearTimeout(timer);
      if (ended === 'late') unsent(`no answer within ${settings.flushTimeoutMs} ms`);
    },
  };
}
