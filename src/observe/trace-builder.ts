/**
 * The one span builder: sortie's run events in, OpenTelemetry spans out, timed by the events.
 * The live export feeds it the run's bus; `sortie export` feeds it the journal; both therefore
 * send the same spans. Each run session (`run.started` to `run.finished`) is one trace: the run,
 * its missions (`invoke_workflow`), tasks, iteration items, each commander's and agent's
 * `invoke_agent`, their `chat` requests and `execute_tool` calls.
 */
import {
  SpanKind,
  SpanStatusCode,
  type Link,
  type SpanContext,
  type Tracer,
} from '@opentelemetry/api';
import type { Message } from '../base/conversation.ts';
import type { EventOf, MissionEvent } from '../base/events.ts';
import { isForkPoint, type ForkPoint } from '../journal/fork-journal.ts';
import {
  chatRequestAttributes,
  chatResponseAttributes,
  conventionMessage,
  inputTokensOf,
  toolAttributes,
} from './gen-ai-attributes.ts';
import { sessionTraceId, type PresetIds } from './span-ids.ts';
import { SpanTree, type SpanNode } from './span-tree.ts';
import { itemKeyOf, scopeSpans } from './scope-spans.ts';

/** What the builder is given. */
export interface TraceBuilderOptions {
  tracer: Tracer;
  ids: PresetIds;
  /** Prompts, replies, tool arguments and results go on the spans (they are redacted events). */
  captureContent: boolean;
}

/** A span of an earlier event a later session may link to: its session and its key. */
interface SpanAddress {
  startSeq: number;
  key: string;
}

const RUN_KEY = 'run';
const STOPPED = 'the run stopped before it finished';

/** Turns a run's events, in seq order, into spans. */
export class TraceBuilder {
  private tree: SpanTree | undefined;
  private runId = '';
  private currentStart = 0;
  private lastMs = 0;
  private previousStart: number | undefined;
  /** The spans of the events a run can be forked at, by seq (a fork links to one). */
  private readonly forkPoints = new Map<number, SpanAddress>();
  private forkLink: Link | undefined;
  private mission: SpanNode | undefined;
  private missionName = '';
  /** The conversations so far, kept only when content is captured. */
  private readonly conversations = new Map<string, Message[]>();

  constructor(private readonly options: TraceBuilderOptions) {}

  /** An event from before this process's part of the run (the journal a resume continues): remembered, not sent. */
  remember(event: MissionEvent): void {
    this.note(event);
  }

  /** Turns one event into spans. */
  add(event: MissionEvent): void {
    this.note(event);
    const timeMs = Date.parse(event.time);
    this.lastMs = Math.max(this.lastMs, timeMs);
    if (event.type === 'run.started') this.startSession(event, timeMs);
    if (this.tree === undefined) return;
    if (this.options.captureContent && event.type === 'message.appended') {
      const messages = this.conversations.get(event.conversation) ?? [];
      messages.push(event.message);
      this.conversations.set(event.conversation, messages);
    }
    const scope = scopeSpans(this.tree, () => this.mission, this.missionName);
    switch (event.type) {
      case 'run.finished':
        return this.endSession(event, timeMs);
      case 'mission.started':
        this.missionName = event.mission;
        this.mission = this.tree.start({
          key: `mission:${event.mission}`,
          name: `invoke_workflow ${event.mission}`,
          parent: this.tree.get(RUN_KEY),
          timeMs,
          attributes: {
            'gen_ai.operation.name': 'invoke_workflow',
            'gen_ai.workflow.name': event.mission,
            ...(event.chainedFrom !== null
              ? { 'sortie.mission.chained_from': event.chainedFrom }
              : {}),
          },
        });
        return;
      case 'mission.succeeded':
      case 'mission.failed':
      case 'mission.cancelled':
        return scope.endMission(event, timeMs);
      case 'task.started':
      case 'task.succeeded':
      case 'task.failed':
      case 'task.cancelled':
      case 'task.skipped':
      case 'route.chosen':
      case 'iteration.started':
      case 'iteration.succeeded':
      case 'iteration.failed':
        return scope.onScopeEvent(event, timeMs);
      case 'model.request':
        return this.startChat(event, timeMs, scope.agentOf(event.actor, timeMs));
      case 'model.response':
        return this.endChat(event, timeMs);
      case 'model.retry':
        this.tree
          .get(`chat:${event.requestId}`)
          ?.span.addEvent(
            'sortie.model.retry',
            { attempt: event.attempt, reason: event.reason, 'sortie.wait_ms': event.waitMs },
            new Date(timeMs),
          );
        return;
      case 'tool.called':
        return this.startTool(event, timeMs, scope.agentOf(event.actor, timeMs));
      case 'tool.completed':
        return this.endTool(event, timeMs);
      default:
        this.tree.touch(scope.agentOf(event.actor, timeMs), timeMs);
    }
  }

  /** The context of the open span of an iteration item (its job carries it to a worker). */
  itemContext(mission: string, task: string, index: number): SpanContext | undefined {
    return this.tree?.get(itemKeyOf(mission, task, index))?.span.spanContext();
  }

  /** Ends what is still open (a journal that stops mid-run: the run was killed). */
  finish(): void {
    const root = this.tree?.get(RUN_KEY);
    if (root !== undefined) {
      this.tree?.end(root, this.lastMs, { code: SpanStatusCode.ERROR, message: STOPPED });
    }
    this.tree = undefined;
  }

  /** What every event tells, sent or not: sessions' starts, fork points, a fork's parent. */
  private note(event: MissionEvent): void {
    this.runId = event.runId;
    if (event.type === 'run.started') {
      if (this.currentStart !== 0) this.previousStart = this.currentStart;
      this.currentStart = event.seq;
    } else if (isForkPoint(event)) {
      // The same rule as `sortie fork`, so only events a fork can start at are remembered.
      this.forkPoints.set(event.seq, { startSeq: this.currentStart, key: spanKeyOf(event) });
    } else if (event.type === 'run.forked') {
      const point = this.forkPoints.get(event.atSeq);
      this.forkLink =
        point === undefined
          ? undefined
          : SpanTree.linkTo(sessionTraceId(event.parentRunId, point.startSeq), point.key, {
              'sortie.link': 'fork_parent',
              'sortie.fork.parent_run_id': event.parentRunId,
              'sortie.fork.at_seq': event.atSeq,
            });
      // The events before the fork point are the parent's: the fork's own part follows.
      this.previousStart = undefined;
    }
  }

  private startSession(event: EventOf<'run.started'>, timeMs: number): void {
    this.finish();
    const traceId = sessionTraceId(event.runId, event.seq);
    this.tree = new SpanTree(this.options.tracer, this.options.ids, traceId);
    this.mission = undefined;
    const links: Link[] = [];
    if (this.forkLink !== undefined) links.push(this.forkLink);
    else if (event.resumed && this.previousStart !== undefined) {
      const earlier = sessionTraceId(this.runId, this.previousStart);
      links.push(SpanTree.linkTo(earlier, RUN_KEY, { 'sortie.link': 'resumed_from' }));
    }
    this.forkLink = undefined;
    this.tree.start({
      key: RUN_KEY,
      name: `sortie run ${event.mission}`,
      parent: undefined,
      timeMs,
      links,
      attributes: {
        'sortie.run.id': event.runId,
        'sortie.run.resumed': event.resumed,
        'sortie.run.session_seq': event.seq,
      },
    });
  }

  private endSession(event: EventOf<'run.finished'>, timeMs: number): void {
    const root = this.tree?.get(RUN_KEY);
    if (root === undefined) return;
    root.span.setAttribute('sortie.run.outcome', event.outcome);
    const failed = event.outcome === 'failed';
    this.tree?.end(
      root,
      timeMs,
      failed ? { code: SpanStatusCode.ERROR, message: 'the run failed' } : undefined,
    );
    this.tree = undefined;
  }

  private startChat(event: EventOf<'model.request'>, timeMs: number, agent: SpanNode): void {
    const node = this.tree?.start({
      key: `chat:${event.requestId}`,
      name: `chat ${event.model.apiName}`,
      parent: agent,
      timeMs,
      kind: SpanKind.CLIENT,
      attributes: chatRequestAttributes(event),
      sums: false,
    });
    if (node === undefined) return;
    node.unfinished = { code: SpanStatusCode.ERROR, message: 'no response' };
    if (!this.options.captureContent) return;
    const messages = (this.conversations.get(event.actor) ?? []).slice(0, event.messageCount);
    node.span.setAttribute(
      'gen_ai.input.messages',
      JSON.stringify(messages.map(conventionMessage)),
    );
    if (event.system !== undefined) {
      const instructions = [{ type: 'text', content: event.system }];
      node.span.setAttribute('gen_ai.system_instructions', JSON.stringify(instructions));
    }
  }

  private endChat(event: EventOf<'model.response'>, timeMs: number): void {
    const node = this.tree?.get(`chat:${event.requestId}`);
    if (node === undefined || this.tree === undefined) return;
    node.span.setAttributes(chatResponseAttributes(event));
    if (this.options.captureContent) {
      const output = [{ ...conventionMessage(event.message), finish_reason: event.stopReason }];
      node.span.setAttribute('gen_ai.output.messages', JSON.stringify(output));
    }
    this.tree.spend(node, BigInt(event.costPico), inputTokensOf(event.usage), event.usage.output);
    this.tree.end(node, timeMs);
  }

  private startTool(event: EventOf<'tool.called'>, timeMs: number, agent: SpanNode): void {
    const node = this.tree?.start({
      key: `tool:${event.actor}:${event.callId}`,
      name: `execute_tool ${event.tool}`,
      parent: agent,
      timeMs,
      attributes: toolAttributes(event),
    });
    if (node === undefined) return;
    node.unfinished = { code: SpanStatusCode.ERROR, message: 'no result' };
    if (this.options.captureContent)
      node.span.setAttribute('gen_ai.tool.call.arguments', event.arguments);
  }

  private endTool(event: EventOf<'tool.completed'>, timeMs: number): void {
    const node = this.tree?.get(`tool:${event.actor}:${event.callId}`);
    if (node === undefined || this.tree === undefined) return;
    if (this.options.captureContent)
      node.span.setAttribute('gen_ai.tool.call.result', event.result);
    if (!event.isError) return this.tree.end(node, timeMs);
    node.span.setAttribute('error.type', 'tool_error');
    // The result is the reason, and content: only sent when content is captured.
    const message = this.options.captureContent ? event.result : 'the tool returned an error';
    this.tree.end(node, timeMs, { code: SpanStatusCode.ERROR, message });
  }
}

/** The key of the span a fork point's event ends (a fork's session links to it). */
function spanKeyOf(point: ForkPoint): string {
  switch (point.type) {
    case 'model.response':
      return `chat:${point.requestId}`;
    case 'tool.completed':
      return `tool:${point.actor}:${point.callId}`;
    case 'mission.started':
      return `mission:${point.mission}`;
  }
}
