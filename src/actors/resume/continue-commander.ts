/**
 * A commander of a resumed run that goes on from its journaled conversation: its agents get
 * their conversations back, the calls of its last reply are closed (journaled results, a
 * resumed `call_agent`, or the "interrupted" error) and its plan and output are restored.
 */
import { toolResultKey, type MissionJournal } from '../../journal/mission-journal.ts';
import type { CommanderRuleStart, CompletionRecord } from '../../machines/commander-context.ts';
import { toolCallsOf } from '../../machines/turn-types.ts';
import type { Message, ToolCallPart, ToolResultPart } from '../../models/model-types.ts';
import { actorId } from '../../base/events.ts';
import { taskTextOf } from '../../runtime/context-window.ts';
import { holdsStoredResult } from '../../tools/results/index.ts';
import { commanderOutcome } from '../commander/commander-results.ts';
import { resumeAgentCall } from '../commander/delegation-tools.ts';
import type { CommanderScope } from '../commander/commander-scope.ts';
import { userText } from '../commander/conversation-helpers.ts';
import type { RestoredConversation } from '../contracts.ts';
import { closeInterruptedCalls, opensCall } from './interrupted-calls.ts';
import type { InvokedBy } from '../run-to-end.ts';

/** Appended when the last journaled reply had no tool calls: the commander's turn is next. */
export const RESTART_NOTE =
  'The run was interrupted by a restart and has resumed; continue the task from here.';

/** What a continued commander starts from. */
export interface CommanderContinuation {
  messages: Message[];
  /** How many of `messages` the journal already holds (the rest are new). */
  journaled: number;
  ruleStart: CommanderRuleStart;
  /** Its `task_complete` had been accepted: it ends with this, no model turn needed. */
  completion?: CompletionRecord;
  /** It had received a stored large result: the result tools are offered from the start. */
  resultTools?: boolean;
}

/** The journaled conversation `id` as a restored one, or undefined when there is none. */
export function restoredConversation(
  journal: MissionJournal,
  id: string,
): RestoredConversation | undefined {
  const messages = journal.conversations.get(id);
  if (messages === undefined || messages.length === 0) return undefined;
  return {
    messages,
    toolResult: (callId) => journal.toolResults.get(toolResultKey(id, callId)),
    serverAsked: (callId) => journal.elicitingCalls.has(toolResultKey(id, callId)),
    loadedSkills: journal.loadedSkills.get(id) ?? [],
  };
}

/** Gives the scope its agents' journaled conversations back (as sessions). */
export function restoreAgentSessions(scope: CommanderScope, journal: MissionJournal): void {
  const { services, createAgentSession } = scope.runtime;
  for (const [name, agent] of scope.agents) {
    const id = actorId.agent(scope.task, name, scope.index ?? undefined);
    const restored = restoredConversation(journal, id);
    if (restored === undefined) continue;
    journal.conversations.delete(id);
    scope.sessions.set(
      name,
      createAgentSession(services, {
        agent,
        task: scope.task,
        ...(scope.index === null ? {} : { index: scope.index }),
        restored,
      }),
    );
  }
}

/**
 * The commander's continuation, or undefined when the journal has no conversation for it
 * (it starts afresh). Taken once: a later try of the same commander starts afresh. A resumed
 * `call_agent` runs its agent as a child of `by.parent`.
 */
export async function continueCommander(
  scope: CommanderScope,
  by: InvokedBy,
): Promise<CommanderContinuation | undefined> {
  const journal = scope.runtime.restore;
  if (journal === undefined) return undefined;
  const restored = restoredConversation(journal, scope.actorId);
  if (restored === undefined) return undefined;
  journal.conversations.delete(scope.actorId);
  restoreAgentSessions(scope, journal);
  const messages = [...restored.messages];
  const journaled = messages.length;
  const completion = acceptedCompletion(messages, restored);
  if (completion !== undefined) {
    return { messages, journaled, ruleStart: ruleState(scope, journal), completion };
  }
  const openings = agentCallOpenings(scope, messages);
  const closing = await closeInterruptedCalls(messages, restored, async (call) => {
    if (call.name !== 'call_agent' || restored.toolResult(call.id) !== undefined) return undefined;
    const args = parsedObject(call.arguments);
    if (args === undefined) return undefined;
    const reply = await resumeAgentCall(scope, args, openings.get(call.id), by);
    // The answer is judged as a live call's is: a long one is stored and summarised.
    const outcome = await commanderOutcome(scope, call.name, reply);
    const content =
      typeof outcome.content === 'string' ? outcome.content : JSON.stringify(outcome.content);
    return resultPart(call, content, outcome.isError);
  });
  if (closing !== null) messages.push(closing);
  else if (endsWithPlainReply(messages)) messages.push(userText(RESTART_NOTE));
  return {
    messages,
    journaled,
    ruleStart: ruleState(scope, journal),
    resultTools: holdsStoredResult(messages),
  };
}

/**
 * The completion of the last reply's `task_complete` when it had been accepted (its result is
 * in the conversation or the journal), else undefined.
 */
export function acceptedCompletion(
  messages: readonly Message[],
  restored: RestoredConversation,
): CompletionRecord | undefined {
  const reply = messages.findLast((message) => message.role === 'assistant');
  const call =
    reply === undefined
      ? undefined
      : toolCallsOf(reply).find((candidate) => candidate.name === 'task_complete');
  if (call === undefined) return undefined;
  const answered = messages
    .flatMap((message) => message.parts)
    .find((part): part is ToolResultPart => part.type === 'tool_result' && part.callId === call.id);
  const content = answered?.content ?? restored.toolResult(call.id)?.content;
  const result = typeof content === 'string' ? parsedObject(content) : undefined;
  const args = parsedObject(call.arguments) ?? {};
  if (result?.status !== 'ok') return undefined;
  const summary = typeof args.summary === 'string' ? args.summary : '';
  if (result.outcome === 'failed') {
    const reason = typeof args.reason === 'string' ? args.reason : '';
    return { outcome: 'failed', summary, reason, route: null, missionInputs: null };
  }
  const inputs = args.mission_inputs;
  return {
    outcome: 'succeeded',
    summary,
    reason: null,
    route: typeof result.route === 'string' ? result.route : null,
    missionInputs:
      inputs !== null && typeof inputs === 'object' ? (inputs as Record<string, unknown>) : null,
  };
}

/** The plan and output the commander had accepted. */
function ruleState(scope: CommanderScope, journal: MissionJournal): CommanderRuleStart {
  const plan = journal.plans.get(scope.actorId) ?? null;
  const outputs = journal.outputs.get(scope.actorId);
  return {
    plan,
    // The plan locks once a subtask is completed (tools.md, "Planning").
    planLocked: plan?.some((subtask) => subtask.status === 'completed') ?? false,
    output: outputs?.has(scope.index) === true ? { value: outputs.get(scope.index) } : null,
  };
}

/**
 * Which task message of its agent's conversation each `call_agent` of the commander opened:
 * calls and openings are matched in order by agent name and exact task text.
 */
function agentCallOpenings(
  scope: CommanderScope,
  messages: readonly Message[],
): Map<string, number> {
  const found = new Map<string, number>();
  const cursors = new Map<string, number>();
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const call of toolCallsOf(message)) {
      if (call.name !== 'call_agent') continue;
      const args = parsedObject(call.arguments);
      const name = String(args?.name);
      const conversation = scope.sessions.get(name)?.messages() ?? [];
      // The next opening with this task. Either side may have been pruned or compacted: the
      // commander's earliest calls or the agent's earliest openings can be gone, and a
      // compacted conversation opens with the task and a summary (the task is what matches).
      const start = cursors.get(name) ?? 0;
      const task = String(args?.task);
      const opening = conversation.findIndex(
        (candidate, index) =>
          index >= start && opensCall(candidate) && taskTextOf(candidate) === task,
      );
      if (opening !== -1) {
        found.set(call.id, opening);
        cursors.set(name, opening + 1);
      }
    }
  }
  return found;
}

function parsedObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function resultPart(call: ToolCallPart, content: string, isError: boolean): ToolResultPart {
  return { type: 'tool_result', callId: call.id, name: call.name, content, isError };
}

/** The last message is a reply without tool calls (the machine would have nudged next). */
function endsWithPlainReply(messages: readonly Message[]): boolean {
  const last = messages.at(-1);
  return last?.role === 'assistant' && toolCallsOf(last).length === 0;
}
