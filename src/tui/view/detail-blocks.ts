/**
 * The detail pane's content as blocks of lines: what is held at the gate, status, plan,
 * system prompt, conversation, tool calls, streamed text, outputs and errors. The cursor moves
 * block by block; a collapsed block shows its first lines only.
 */
import type { GatePoint } from '../../runtime/gate.ts';
import type { ActorDetail, ActorNode, ToolCallRecord } from '../store/state.ts';
import { statusIcon } from './status.ts';
import { prettyJson, showValue } from '../../present/json-text.ts';
import { messageText } from '../../present/message-text.ts';
import { formatCost } from '../../present/money.ts';
import { countOf, formatCount, formatDuration } from '../../present/numbers.ts';

/** One block of the detail pane. */
export interface DetailBlock {
  key: string;
  title: string;
  /** Full body text (wrapped at render time). */
  body: string;
  /** Lines shown while collapsed; Infinity when the block always shows in full. */
  collapsedLines: number;
  /** The tool a `b` on this block toggles a breakpoint for. */
  tool?: string;
  /** The seq `f` and `e` fork at: a model reply's or a tool result's (shown in the title). */
  forkSeq?: number;
}

/** ` · seq 12` after the title of a block the run can be forked at. */
function seqSuffix(seq: number | null | undefined): string {
  return seq === null || seq === undefined ? '' : ` · seq ${seq}`;
}

const SUBTASK_MARKS = { pending: '[ ]', in_progress: '[~]', completed: '[✓]' } as const;

/** The arguments a held tool point is about to run with, in full when the conversation has them. */
function heldToolArguments(point: GatePoint, detail: ActorDetail): string {
  for (let at = detail.messages.length - 1; at >= 0; at--) {
    const message = detail.messages[at];
    if (message?.role !== 'assistant') continue;
    const call = message.parts.findLast(
      (part) => part.type === 'tool_call' && part.name === point.tool,
    );
    if (call?.type === 'tool_call') return prettyJson(call.arguments);
    break;
  }
  return prettyJson(point.detail);
}

/** The block of a held point, without the key and fold every held block has. */
function heldBlock(
  point: GatePoint,
  detail: ActorDetail,
): Omit<DetailBlock, 'key' | 'collapsedLines'> {
  if (point.kind === 'route') {
    return { title: '⏸ held before the route takes effect', body: `route: ${point.detail}` };
  }
  if (point.kind === 'error') {
    // The failed call's own block below carries its seq: f and e fork there.
    return {
      title: `⏸ held before the error of tool ${point.tool ?? ''} goes back to the model`,
      body: prettyJson(point.detail),
      ...(point.tool === undefined ? {} : { tool: point.tool }),
    };
  }
  if (point.kind === 'tool') {
    return {
      title: `⏸ held before tool ${point.tool ?? ''}: arguments`,
      body: heldToolArguments(point, detail),
      tool: point.tool,
    };
  }
  const pending = detail.messages.map((message) => `${message.role}: ${messageText(message)}`);
  return {
    title: `⏸ held before model request: ${countOf(detail.messages.length, 'message')}`,
    body: [
      `model: ${point.detail}`,
      // The point carries the prompt about to be sent; the detail has the last one sent.
      `system: ${point.system ?? detail.system ?? '(not sent yet)'}`,
      ...pending,
    ].join('\n'),
  };
}

function toolBlock(call: ToolCallRecord, position: number): DetailBlock {
  const state =
    call.result === null
      ? 'running'
      : `${call.isError ? 'error' : 'ok'} in ${formatDuration(call.durationMs ?? 0)}`;
  const result = call.result === null ? '' : `\n← ${prettyJson(call.result)}`;
  return {
    key: `tool-${position}`,
    title: `tool ${call.tool} (${state})${seqSuffix(call.forkSeq)}`,
    body: `→ ${prettyJson(call.arguments)}${result}`,
    collapsedLines: 2,
    tool: call.tool,
    ...(call.forkSeq === null ? {} : { forkSeq: call.forkSeq }),
  };
}

/** The blocks for an actor, with any held point of that actor first. */
export function detailBlocks(
  node: ActorNode,
  detail: ActorDetail,
  held: readonly GatePoint[],
): DetailBlock[] {
  const blocks: DetailBlock[] = [];
  // A block with no tool to break on and no seq to fork at.
  const add = (key: string, title: string, body: string, collapsedLines: number): void => {
    blocks.push({ key, title, body, collapsedLines });
  };
  const heldPoint = held.find((point) => point.actor === node.id);
  if (heldPoint !== undefined) {
    blocks.push({ key: 'held', collapsedLines: Infinity, ...heldBlock(heldPoint, detail) });
  }
  const activity = node.activity === '' ? '' : ` · ${node.activity}`;
  const spend = `${formatCount(node.tokens)} tokens · ${formatCost(node.costPico, node.unpriced)}`;
  const status = `${node.status}${activity} · ${spend}`;
  add('status', `${statusIcon(node.status)} ${node.id}`, status, Infinity);
  if (node.signals.length > 0) {
    add('signals', 'signals', node.signals.map((signal) => `⚠ ${signal.message}`).join('\n'), 3);
  }
  if (detail.plan.length > 0) {
    const plan = detail.plan.map((subtask) => `${SUBTASK_MARKS[subtask.status]} ${subtask.title}`);
    add('plan', 'plan', plan.join('\n'), Infinity);
  }
  if (detail.system !== null) {
    add('system', `system prompt (${formatCount(detail.system.length)} chars)`, detail.system, 0);
  }
  detail.messages.forEach((message, position) => {
    const seq = detail.messageSeqs[position] ?? null;
    blocks.push({
      key: `message-${position}`,
      title: `${message.role}${seqSuffix(seq)}`,
      body: messageText(message),
      collapsedLines: 3,
      ...(seq === null ? {} : { forkSeq: seq }),
    });
  });
  if (detail.streaming !== '') add('streaming', 'streaming…', detail.streaming, Infinity);
  detail.toolCalls.forEach((call, position) => blocks.push(toolBlock(call, position)));
  detail.forkMessages.forEach((message, position) => {
    add(`fork-${position}`, `question fork · ${message.role}`, messageText(message), 3);
  });
  detail.outputs.forEach((output, position) => {
    add(`output-${position}`, 'output', showValue(output), 12);
  });
  if (detail.errors.length > 0) add('errors', 'errors', detail.errors.join('\n'), Infinity);
  return blocks;
}
