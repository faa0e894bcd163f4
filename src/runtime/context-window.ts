/**
 * Context management of an agent's or a commander's conversation (`pruning`, `compaction`), as
 * pure functions the machines call before each model request (and the journal replays). A cut never separates a tool
 * call from its result: the kept turns start at a model reply, after one user message that
 * carries the task they work on (pruning) or the summary of what was dropped (compaction). So
 * the conversation still starts with a user message, alternates, and answers every call.
 */
import type { CompactionConfig, ContextLimits, PruningConfig } from '../config/config-types.ts';
import {
  textOf,
  toolCallsOf,
  type ContextCut,
  type Message,
  type Part,
  type TextPart,
  type Usage,
} from '../base/conversation.ts';

export type { ContextCut } from '../base/conversation.ts';

/** What bounds a conversation; both optional (config: `pruning`, `compaction`). */
export interface ContextPolicy {
  pruning?: PruningConfig;
  compaction?: CompactionConfig;
}

/** The policy of an agent's or a commander's `pruning` and `compaction` blocks. */
export function contextPolicyOf(limits: ContextLimits): ContextPolicy {
  return {
    ...(limits.pruning !== undefined ? { pruning: limits.pruning } : {}),
    ...(limits.compaction !== undefined ? { compaction: limits.compaction } : {}),
  };
}

/** Marks sortie's summary of compacted turns (also how a later compaction recognises it). */
export const SUMMARY_OPENING = '<compacted_context>';
const SUMMARY_CLOSING = '</compacted_context>';
/** Each earlier reply contributes at most this much to a summary, and at most so many replies. */
const FINDING_CHARS = 200;
const MAX_FINDINGS = 20;
/** A head carries at most this many summaries: older ones are dropped with their turns. */
const MAX_SUMMARIES = 3;

/** The tokens a request's prompt took: input in every class (fresh, cache read, cache write). */
export function promptTokens(usage: Usage): number {
  return usage.input + usage.cacheRead + usage.cacheWrite;
}

/**
 * Which cut is due before the next request, without its head, or null. Compaction (the last
 * prompt over `token_limit`) goes first; pruning (`prune_on` turns reached) applies to what
 * remains, so one check never needs a second.
 */
function dueCut(
  messages: readonly Message[],
  policy: ContextPolicy,
  lastUsage: Usage | null,
): Omit<ContextCut, 'head'> | null {
  const { compaction, pruning } = policy;
  // Most actors have no limits: no need to look through the conversation every turn.
  if (compaction === undefined && pruning === undefined) return null;
  const replies = replyIndexes(messages);
  const keeping = (kind: ContextCut['kind'], kept: number, inputTokens: number | null) => ({
    kind,
    from: replies[replies.length - kept] as number,
    turnsBefore: replies.length,
    turnsAfter: kept,
    inputTokens,
  });
  if (compaction !== undefined && lastUsage !== null) {
    const used = promptTokens(lastUsage);
    if (used > compaction.tokenLimit && replies.length > compaction.turnRetention) {
      return keeping('compacted', compaction.turnRetention, used);
    }
  }
  if (pruning !== undefined && replies.length >= pruning.pruneOn) {
    return keeping('pruned', pruning.pruneTo, null);
  }
  return null;
}

/** Whether a cut is due before the next request: what the machines' guards ask, every turn. */
export function contextCutDue(
  messages: readonly Message[],
  policy: ContextPolicy,
  lastUsage: Usage | null,
): boolean {
  return dueCut(messages, policy, lastUsage) !== null;
}

/**
 * The cut to make before the next request, or null. `state` (where the actor stands, for a
 * compaction's summary) is asked for only when a compaction is due.
 */
export function planContextCut(
  messages: readonly Message[],
  policy: ContextPolicy,
  lastUsage: Usage | null,
  state: () => readonly string[] = () => [],
): ContextCut | null {
  const due = dueCut(messages, policy, lastUsage);
  if (due === null) return null;
  const head =
    due.kind === 'compacted'
      ? summaryHead(messages, due.from, state())
      : taskBefore(messages, due.from);
  return { ...due, head };
}

/** The conversation after a cut: the head, then the kept turns. */
export function applyContextCut(
  messages: readonly Message[],
  cut: Pick<ContextCut, 'from' | 'head'>,
): Message[] {
  return [cut.head, ...messages.slice(cut.from)];
}

/**
 * Where the model's replies are: the possible first kept messages. A reply that opens the
 * conversation cannot be one (nothing user-side would precede it).
 */
function replyIndexes(messages: readonly Message[]): number[] {
  const indexes: number[] = [];
  messages.forEach((message, index) => {
    if (message.role === 'assistant' && index > 0) indexes.push(index);
  });
  return indexes;
}

/** True for a user message that only answers tool calls. */
function isToolResults(message: Message): boolean {
  return message.role === 'user' && message.parts.every((part) => part.type === 'tool_result');
}

/** The last user message before `from` that is not tool results: the task being worked on. */
function taskBefore(messages: readonly Message[], from: number): Message {
  for (let index = from - 1; index >= 0; index--) {
    const message = messages[index] as Message;
    if (message.role === 'user' && !isToolResults(message)) return message;
  }
  return messages[0] as Message;
}

/** The task, its earlier summaries (the last few) and a new one for the turns before `from`. */
function summaryHead(
  messages: readonly Message[],
  from: number,
  state: readonly string[],
): Message {
  const task = taskBefore(messages, from);
  const taskParts = task.parts.filter((part) => !isSummary(part));
  const earlier = task.parts.filter(isSummary).slice(-(MAX_SUMMARIES - 1));
  const dropped = messages.slice(messages.indexOf(task) + 1, from);
  const summary: TextPart = { type: 'text', text: summarize(dropped, state) };
  return { role: 'user', parts: [...taskParts, ...earlier, summary] };
}

/** The text of a user message without sortie's summaries: the task a compacted head carries. */
export function taskTextOf(message: Message): string {
  return message.parts
    .filter((part): part is TextPart => part.type === 'text' && !isSummary(part))
    .map((part) => part.text)
    .join('');
}

function isSummary(part: Part): part is TextPart {
  return part.type === 'text' && part.text.startsWith(SUMMARY_OPENING);
}

/**
 * A deterministic summary (no model call, so it costs nothing and replays exactly): the
 * tools the dropped turns used and what their replies said, each cut to 200 characters, then
 * `state`: where the actor stands now (a commander's plan and outputs), which the dropped
 * turns established and the kept ones may not show.
 */
export function summarize(dropped: readonly Message[], state: readonly string[] = []): string {
  const tools = new Set<string>();
  const findings: string[] = [];
  for (const message of dropped) {
    if (message.role !== 'assistant') continue;
    for (const call of toolCallsOf(message)) tools.add(call.name);
    const text = textOf(message).trim().replace(/\s+/g, ' ');
    if (text !== '') findings.push(cut(text));
  }
  const lines = [
    SUMMARY_OPENING,
    `${dropped.filter((message) => message.role === 'assistant').length} earlier turns were replaced by this summary to keep the context small.`,
    tools.size === 0 ? 'Tools used: none.' : `Tools used: ${[...tools].join(', ')}.`,
    'What those turns said:',
    ...(findings.length === 0
      ? ['- (only tool calls)']
      : findings.slice(-MAX_FINDINGS).map((finding) => `- ${finding}`)),
    ...(state.length === 0 ? [] : ['Where things stand now:', ...state]),
    SUMMARY_CLOSING,
  ];
  return lines.join('\n');
}

function cut(text: string): string {
  const characters = [...text];
  if (characters.length <= FINDING_CHARS) return text;
  return `${characters.slice(0, FINDING_CHARS).join('')}…`;
}
