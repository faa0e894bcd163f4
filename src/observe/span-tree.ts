/**
 * The open spans of one run session as a tree: started with the events' own times and the ids
 * span-ids.ts derives, each knowing the time of the last event under it, the cost and tokens
 * spent under it, and ended (with whatever under it is still open) at an event's time.
 */
import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Link,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import { dollarsOf } from './gen-ai-attributes.ts';
import { spanIdOf, type PresetIds } from './span-ids.ts';

/** One open span. */
export interface SpanNode {
  readonly key: string;
  readonly span: Span;
  readonly parent: SpanNode | undefined;
  readonly children: Set<SpanNode>;
  readonly startMs: number;
  /** The time of the last event under it, in milliseconds. */
  lastMs: number;
  costPico: bigint;
  inputTokens: number;
  outputTokens: number;
  /** Cost and tokens under it are set on it when it ends (all but `chat` spans, which carry their own). */
  readonly sums: boolean;
  /** What it ends with when its parent ends it while it is still open. */
  unfinished: { code: SpanStatusCode; message?: string };
}

/** What a new span is. */
export interface SpanStart {
  key: string;
  name: string;
  parent: SpanNode | undefined;
  timeMs: number;
  kind?: SpanKind;
  attributes: Attributes;
  links?: Link[];
  sums?: boolean;
}

/** The spans of one trace (one run session). */
export class SpanTree {
  private readonly open = new Map<string, SpanNode>();
  /** How many spans each key has had: a key seen again (an item's retry) gets ids of its own. */
  private readonly used = new Map<string, number>();

  constructor(
    private readonly tracer: Tracer,
    private readonly ids: PresetIds,
    readonly traceId: string,
  ) {}

  /** The open span of `key`. */
  get(key: string): SpanNode | undefined {
    return this.open.get(key);
  }

  /** Starts a span; a span of the same key still open is ended first. */
  start(start: SpanStart): SpanNode {
    const earlier = this.open.get(start.key);
    if (earlier !== undefined) this.end(earlier, start.timeMs);
    const occurrence = (this.used.get(start.key) ?? 0) + 1;
    this.used.set(start.key, occurrence);
    const idKey = occurrence === 1 ? start.key : `${start.key}#${occurrence}`;
    this.ids.next(spanIdOf(this.traceId, idKey), this.traceId);
    const context =
      start.parent === undefined ? ROOT_CONTEXT : trace.setSpan(ROOT_CONTEXT, start.parent.span);
    const span = this.tracer.startSpan(
      start.name,
      {
        kind: start.kind ?? SpanKind.INTERNAL,
        startTime: new Date(start.timeMs),
        attributes: start.attributes,
        ...(start.links !== undefined && start.links.length > 0 ? { links: start.links } : {}),
      },
      context,
    );
    const node: SpanNode = {
      key: start.key,
      span,
      parent: start.parent,
      children: new Set(),
      startMs: start.timeMs,
      lastMs: start.timeMs,
      costPico: 0n,
      inputTokens: 0,
      outputTokens: 0,
      sums: start.sums ?? true,
      unfinished: { code: SpanStatusCode.UNSET },
    };
    start.parent?.children.add(node);
    this.open.set(start.key, node);
    this.touch(start.parent, start.timeMs);
    return node;
  }

  /** An event happened under `node` at `timeMs`. */
  touch(node: SpanNode | undefined, timeMs: number): void {
    for (let current = node; current !== undefined; current = current.parent) {
      if (current.lastMs < timeMs) current.lastMs = timeMs;
    }
  }

  /** Adds a model turn's spending to every span above `node`. */
  spend(node: SpanNode, pico: bigint, input: number, output: number): void {
    for (let current = node.parent; current !== undefined; current = current.parent) {
      current.costPico += pico;
      current.inputTokens += input;
      current.outputTokens += output;
    }
  }

  /** Ends a span, and first every span under it still open (at its last event's time). */
  end(
    node: SpanNode,
    timeMs: number,
    status: { code: SpanStatusCode; message?: string } = { code: SpanStatusCode.UNSET },
  ): void {
    for (const child of [...node.children]) this.end(child, child.lastMs, child.unfinished);
    if (node.sums) {
      node.span.setAttributes({
        'sortie.cost.usd': dollarsOf(node.costPico),
        'sortie.usage.input_tokens': node.inputTokens,
        'sortie.usage.output_tokens': node.outputTokens,
      });
    }
    if (status.code !== SpanStatusCode.UNSET) node.span.setStatus(status);
    node.span.end(new Date(Math.max(timeMs, node.startMs)));
    node.parent?.children.delete(node);
    if (this.open.get(node.key) === node) this.open.delete(node.key);
    this.touch(node.parent, timeMs);
  }

  /** The link to the span of `key` in another trace (a resumed run's earlier part, a fork's parent). */
  static linkTo(traceId: string, key: string, attributes: Attributes): Link {
    return {
      context: { traceId, spanId: spanIdOf(traceId, key), traceFlags: 1, isRemote: true },
      attributes,
    };
  }
}
