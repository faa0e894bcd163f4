/**
 * Span and trace ids derived from the run, not drawn at random: a span's id is a hash of the
 * run id and what the span stands for (`task:review`, `chat:<request id>`), a session's trace
 * id a hash of the run id and the seq of its `run.started`. A journal exported afterwards
 * therefore gets the ids its live export got, a resumed run can link to its earlier part and a
 * fork to its parent by computing their ids, and a worker's item span is found by its key.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { IdGenerator } from '@opentelemetry/sdk-trace';

function digest(parts: readonly string[]): string {
  return createHash('sha256').update(parts.join('\n')).digest('hex');
}

/** The trace id of the run session that started at `startSeq`. */
export function sessionTraceId(runId: string, startSeq: number): string {
  return digest([runId, 'trace', String(startSeq)]).slice(0, 32);
}

/** The id of the span standing for `key` in the trace `traceId`. */
export function spanIdOf(traceId: string, key: string): string {
  return digest([traceId, key]).slice(0, 16);
}

/**
 * The tracer's id source: the ids the next span gets are set just before it is started (the
 * tracer asks synchronously inside startSpan); a span started without them gets random ids.
 */
export class PresetIds implements IdGenerator {
  private traceId: string | undefined;
  private spanId: string | undefined;

  /** Sets the ids of the next span; `traceId` only for a root span (a child takes its parent's). */
  next(spanId: string, traceId?: string): void {
    this.spanId = spanId;
    this.traceId = traceId;
  }

  generateTraceId(): string {
    const id = this.traceId ?? randomBytes(16).toString('hex');
    this.traceId = undefined;
    return id;
  }

  generateSpanId(): string {
    const id = this.spanId ?? randomBytes(8).toString('hex');
    this.spanId = undefined;
    return id;
  }
}
