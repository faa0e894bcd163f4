/**
 * `sortie diff`: where two runs' conversations part. Each conversation (an actor's, or a
 * question fork's) is the messages its `message.appended` events added, in order; two runs'
 * copies are compared message by message, and the tasks' ends (status, summary, output) side by
 * side. Pure: journal events in, plain data out (cli/diff-text.ts writes it).
 */
import { isDeepStrictEqual } from 'node:util';
import type { Message } from '../base/conversation.ts';
import type { MissionEvent } from '../base/events.ts';
import { summarizeRun } from './summary.ts';
import type { TaskSummary } from './summary-types.ts';

/** One conversation in both runs. */
export interface ConversationDiff {
  conversation: string;
  a: readonly Message[];
  b: readonly Message[];
  /** The index of the first message that differs (or that one run lacks); null when equal. */
  partsAt: number | null;
}

/** A task's end in both runs (undefined: the run has no such task). */
export interface TaskDiff {
  task: string;
  a: TaskSummary | undefined;
  b: TaskSummary | undefined;
}

/** Two runs compared. */
export interface RunDiff {
  /** Every conversation of either run: A's in order of first message, then B's others. */
  conversations: ConversationDiff[];
  /** Tasks whose status, summary or output differ. */
  tasks: TaskDiff[];
  /** Either run's fork record naming the other (`B forked from A at seq N`). */
  lineage: { child: 'a' | 'b'; seq: number } | null;
}

/** Compares two runs' journals. */
export function diffRuns(a: readonly MissionEvent[], b: readonly MissionEvent[]): RunDiff {
  const left = conversationsOf(a);
  const right = conversationsOf(b);
  const ids = [...new Set([...left.keys(), ...right.keys()])];
  const conversations = ids.map((conversation) => {
    const messagesA = left.get(conversation) ?? [];
    const messagesB = right.get(conversation) ?? [];
    return {
      conversation,
      a: messagesA,
      b: messagesB,
      partsAt: partingIndex(messagesA, messagesB),
    };
  });
  return { conversations, tasks: taskDiffs(a, b), lineage: lineageOf(a, b) };
}

function conversationsOf(events: readonly MissionEvent[]): Map<string, Message[]> {
  const conversations = new Map<string, Message[]>();
  for (const event of events) {
    if (event.type !== 'message.appended') continue;
    const messages = conversations.get(event.conversation) ?? [];
    messages.push(event.message);
    conversations.set(event.conversation, messages);
  }
  return conversations;
}

function partingIndex(a: readonly Message[], b: readonly Message[]): number | null {
  const length = Math.max(a.length, b.length);
  for (let index = 0; index < length; index += 1) {
    if (!sameMessage(a[index], b[index])) return index;
  }
  return null;
}

/**
 * Whether two messages say the same: tool call ids (each model or server numbers them its own
 * way) and opaque provider state are not what was said.
 */
export function sameMessage(a: Message | undefined, b: Message | undefined): boolean {
  return isDeepStrictEqual(comparable(a), comparable(b));
}

function comparable(message: Message | undefined): unknown {
  if (message === undefined) return undefined;
  const parts = message.parts.map((part) => {
    const { state: _state, ...rest } = part as typeof part & { state?: unknown };
    if (rest.type === 'tool_call') return { ...rest, id: '' };
    if (rest.type === 'tool_result') return { ...rest, callId: '' };
    return rest;
  });
  return { role: message.role, parts };
}

function taskDiffs(a: readonly MissionEvent[], b: readonly MissionEvent[]): TaskDiff[] {
  const left = new Map(summarizeRun(a).tasks.map((task) => [task.name, task]));
  const right = new Map(summarizeRun(b).tasks.map((task) => [task.name, task]));
  const names = [...new Set([...left.keys(), ...right.keys()])];
  return names
    .map((task) => ({ task, a: left.get(task), b: right.get(task) }))
    .filter((diff) => !isDeepStrictEqual(endOf(diff.a), endOf(diff.b)));
}

function endOf(task: TaskSummary | undefined): unknown {
  return task === undefined ? undefined : [task.status, task.summary, task.output, task.error];
}

function lineageOf(a: readonly MissionEvent[], b: readonly MissionEvent[]): RunDiff['lineage'] {
  const parentOf = (events: readonly MissionEvent[], other: readonly MissionEvent[]) => {
    const forked = events.findLast((event) => event.type === 'run.forked');
    const otherId = other[0]?.runId;
    return forked?.type === 'run.forked' && forked.parentRunId === otherId ? forked.atSeq : null;
  };
  const bFromA = parentOf(b, a);
  if (bFromA !== null) return { child: 'b', seq: bFromA };
  const aFromB = parentOf(a, b);
  return aFromB === null ? null : { child: 'a', seq: aFromB };
}
