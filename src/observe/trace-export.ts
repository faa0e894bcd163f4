/**
 * The OpenTelemetry SDK behind the span builder: a tracer provider with sortie's ids, a batch
 * processor and the OTLP exporter of the chosen protocol, configured by the standard variables
 * (the exporters read the endpoint, headers and timeout themselves; the resource reads
 * OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES). Sending never stops or slows a run: a
 * collector that cannot be reached costs one warning, and closing waits at most the timeout.
 */
import { ROOT_CONTEXT, defaultTextMapSetter, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import type { MissionEvent } from '../base/events.ts';
import type { TraceSettings } from './settings.ts';
import { firstLine, openOtlpProvider } from './otlp-provider.ts';
import { PresetIds } from './span-ids.ts';
import { TraceBuilder } from './trace-builder.ts';

/** A span builder sending what it builds. */
export interface TraceSink {
  /** Turns an event of this process's part of the run into spans; never throws. */
  add(event: MissionEvent): void;
  /** Reads an event from before this process's part of the run (links, fork points). */
  remember(event: MissionEvent): void;
  /**
   * The W3C `traceparent` of an iteration item's open span, which its job carries to a worker
   * (ids and a flag only, never content); undefined when the item has no open span.
   */
  traceparent(item: { mission: string; task: string; index: number }): string | undefined;
  /** Ends what is still open and sends the last spans, waiting at most the export timeout. */
  close(): Promise<void>;
}

/** Opens the export: `warn` gets at most one line, whatever goes wrong. */
export function openTraceExport(
  settings: TraceSettings,
  warn: (message: string) => void,
): TraceSink {
  const ids = new PresetIds();
  const otlp = openOtlpProvider(settings, warn, ids);
  const { warnOnce } = otlp;
  const builder = new TraceBuilder({
    tracer: otlp.tracer,
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
    traceparent({ mission, task, index }) {
      const context = builder.itemContext(mission, task, index);
      if (context === undefined) return undefined;
      const carrier: Record<string, string> = {};
      const withSpan = trace.setSpanContext(ROOT_CONTEXT, context);
      new W3CTraceContextPropagator().inject(withSpan, carrier, defaultTextMapSetter);
      return carrier.traceparent;
    },
    async close() {
      try {
        builder.finish();
      } catch (error) {
        warnOnce(`traces could not be finished (${firstLine(error)})`);
      }
      await otlp.close();
    },
  };
}
