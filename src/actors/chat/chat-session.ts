/**
 * The agent session of a chat and where its conversation stands. A resumed or forked chat gets
 * the conversation its journal kept (as a resumed commander gets its agents'), and the turn a
 * stop cut short is finished before the person is asked for the next message.
 */
import { actorId, type ChatStart } from '../../base/events.ts';
import type { MissionJournal } from '../../journal/mission-journal.ts';
import { textOf, toolCallsOf } from '../../machines/turn-types.ts';
import type {
  AgentCallResult,
  AgentSession,
  ChatRoot,
  CreateAgentSession,
  RunServices,
} from '../contracts.ts';
import { restoredConversation } from '../resume/continue-commander.ts';
import { opensCall } from '../resume/interrupted-calls.ts';
import { CHAT_TASK } from './chat-messages.ts';

/** A chat's session as it starts: fresh, or with the turns its journal kept. */
export interface ChatSessionStart {
  session: AgentSession;
  /** The person's messages the conversation already holds. */
  turns: number;
  /** The last journaled turn's reply, when that turn had ended with one. */
  lastReply?: AgentCallResult;
  /** Where the last journaled turn opens, when a stop cut it short before the agent replied. */
  cutTurn?: number;
}

/** The chat's root as the journal keeps it: what `resume` and `fork` need to go on with it. */
export function chatStart(chat: ChatRoot): ChatStart {
  return { agent: chat.agent, ...(chat.task !== undefined ? { task: chat.task } : {}) };
}

/** Opens the chat agent's session, with the conversation `restore` kept for it, if any. */
export function openChatSession(
  services: RunServices,
  createAgentSession: CreateAgentSession,
  chat: ChatRoot,
  restore: MissionJournal | undefined,
): ChatSessionStart {
  const agent = services.mission.scopedAgents.get(chat.agent);
  if (agent === undefined) throw new Error(`the chat's agent "${chat.agent}" is missing`);
  const id = actorId.agent(CHAT_TASK, agent.name);
  const restored = restore === undefined ? undefined : restoredConversation(restore, id);
  const session = createAgentSession(services, {
    agent,
    task: CHAT_TASK,
    ...(restored !== undefined ? { restored } : {}),
  });
  const messages = restored?.messages ?? [];
  const openings = messages.flatMap((message, index) => (opensCall(message) ? [index] : []));
  const lastOpening = openings.at(-1);
  if (lastOpening === undefined) return { session, turns: 0 };
  const last = messages.at(-1);
  if (last?.role === 'assistant' && toolCallsOf(last).length === 0) {
    return { session, turns: openings.length, lastReply: { ok: true, result: textOf(last) } };
  }
  return { session, turns: openings.length, cutTurn: lastOpening };
}
