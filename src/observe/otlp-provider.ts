/**
 * The OpenTelemetry SDK set up once for every export of sortie: a tracer provider with the
 * given id source, a batch processor and the OTLP exporter of the chosen protocol, configured by
 * the standard variables (the exporters read the endpoint, headers and timeout themselves; the
 * resource reads OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES). Sending never stops or slows
 * the process: a collector that cannot be reached costs one warning, and closing waits at most
 * the export timeout.
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
import { BatchSpanProcessor, TracerProvider, type IdGenerator } from '@opentelemetry/sdk-trace';
import type { Tracer } from '@opentelemetry/api';
import { reasonOf } from '../base/reason.ts';
import type { TraceSettings } from './settings.ts';

/** A started provider and the one warning it may give. */
export interface OtlpProvider {
  tracer: Tracer;
  /** Warns once per provider, whatever goes wrong. */
  warnOnce(message: string): void;
  /** Sends what is queued and shuts down, waiting at most the export timeout. */
  close(): Promise<void>;
}

/** The first line of an error's message. */
export function firstLine(error: unknown): string {
  const text = reasonOf(error);
  return text.split('\n')[0] ?? text;
}

/** Starts the provider; `warn` gets at most one line. */
export function openOtlpProvider(
  settings: TraceSettings,
  warn: (message: string) => void,
  idGenerator?: IdGenerator,
): OtlpProvider {
  let warned = false;
  const warnOnce = (message: string): void => {
    if (warned) return;
    warned = true;
    warn(message);
  };
  const where = settings.destination;
  const unsent = (why: string): void => warnOnce(`traces could not be sent to ${where} (${why})`);
  // The batch processor reports failed exports here; the process goes on either way.
  setGlobalErrorHandler((error) => unsent(firstLine(error)));
  const options = settings.url !== undefined ? { url: settings.url } : {};
  const exporter =
    settings.protocol === 'http/json' ? new JsonExporter(options) : new ProtobufExporter(options);
  const provider = new TracerProvider({
    resource: defaultResource()
      .merge(resourceFromAttributes({ 'service.name': 'sortie' }))
      .merge(detectResources({ detectors: [envDetector] })),
    ...(idGenerator !== undefined ? { idGenerator } : {}),
    // A journal's export hands over every span at once: the queue holds them rather than drop.
    spanProcessors: [new BatchSpanProcessor({ exporter, maxQueueSize: 100_000 })],
  });
  return {
    tracer: provider.getTracer('sortie'),
    warnOnce,
    async close() {
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
