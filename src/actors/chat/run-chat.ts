/**
 * A chat run's root (`sortie chat`): one agent session fed by the person instead of a
 * commander. Each message the person writes is one `call` of the session, which runs the
 * agent machine until the agent replies; the chat is one mission with one task so that the
 * journal, `show`, `replay`, the TUI and the line log read it as they read any run.
 */
import { actorId, type EventOf, type MissionEvent } from '../../base/events.ts';
import { reasonOf } from '../../base/reason.ts';
import type { MissionJournal } from '../../journal/mission-journal.ts';
import {
  cancelReasonOf,
  type AgentCallResult,
  type AgentSession,
  type ChatRoot,
  type CreateAgentSession,
  type RunServices,
} from '../contracts.ts';
import type { MissionRunResult } from '../mission/run-mission.ts';
import { CHAT_TASK, chatQuestion, isChatEnd } from './chat-messages.ts';
import { openChatSession } from './chat-session.ts';

/** What a chat run needs. */
export interface RunChatOptions {
  services: RunServices;
  createAgentSession: CreateAgentSession;
  chat: ChatRoot;
  /** A resumed or forked chat: what its journal kept (the conversation so far). */
  restore?: MissionJournal;
}

/** Runs the conversation until the person ends it; never rejects. */
export async function runChat(options: RunChatOptions): Promise<MissionRunResult> {
  const { services } = options;
  const { bus, mission, signal } = services;
  const missionActor = actorId.mission(mission.name);
  const taskActor = actorId.task(CHAT_TASK);
  const started = performance.now();
  const elapsed = (): number => Math.round(performance.now() - started);
  bus.emit({
    type: 'mission.started',
    actor: missionActor,
    mission: mission.name,
    inputs: services.inputs,
    chainedFrom: null,
  });
  bus.emit({
    type: 'task.started',
    actor: taskActor,
    task: CHAT_TASK,
    activatedBy: null,
    iterated: false,
  });
  let last: AgentCallResult | undefined;
  try {
    last = await converse(options);
  } catch (error) {
    last = { ok: false, reason: reasonOf(error) };
  }
  if (signal.aborted) {
    const reason = cancelReasonOf(signal);
    bus.emit({ type: 'task.cancelled', actor: taskActor, task: CHAT_TASK, reason });
    bus.emit({
      type: 'mission.cancelled',
      actor: missionActor,
      mission: mission.name,
      reason,
      durationMs: elapsed(),
    });
    return { status: 'cancelled', error: reason, chainTo: null, tasks: [] };
  }
  if (last !== undefined && !last.ok) {
    const error = last.reason;
    bus.emit({
      type: 'task.failed',
      actor: taskActor,
      task: CHAT_TASK,
      error,
      durationMs: elapsed(),
    });
    bus.emit({
      type: 'mission.failed',
      actor: missionActor,
      mission: mission.name,
      error: `task "${CHAT_TASK}" failed: ${error}`,
      failedTask: CHAT_TASK,
      durationMs: elapsed(),
    });
    return { status: 'failed', error, chainTo: null, tasks: [] };
  }
  const reply = last?.result ?? '';
  bus.emit({
    type: 'task.succeeded',
    actor: taskActor,
    task: CHAT_TASK,
    summary: reply.split('\n')[0] ?? '',
    output: reply,
    route: null,
    durationMs: elapsed(),
  });
  bus.emit({
    type: 'mission.succeeded',
    actor: missionActor,
    mission: mission.name,
    durationMs: elapsed(),
  });
  return {
    status: 'succeeded',
    chainTo: null,
    tasks: [
      {
        mission: mission.name,
        name: CHAT_TASK,
        status: 'succeeded',
        summary: reply,
        output: reply,
      },
    ],
  };
}

/**
 * The turns of the chat: each message of the person is one call of the agent session; a
 * resumed chat first finishes the turn a stop cut short (a `--task` chat then ends). Ends with
 * the last turn's result (undefined when the person wrote nothing).
 */
async function converse(options: RunChatOptions): Promise<AgentCallResult | undefined> {
  const { services, chat } = options;
  const { signal } = services;
  const start = openChatSession(services, options.createAgentSession, chat, options.restore);
  const { session } = start;
  let last = start.lastReply;
  if (start.cutTurn !== undefined) {
    last = await session.resumeCall(start.cutTurn, { signal });
    chat.replied?.(last);
  }
  // A `--task` chat has one turn: once journaled, a resumed one has nothing more to send.
  if (chat.task !== undefined && start.turns > 0) return last;
  for (let turn = start.turns + 1; !signal.aborted; turn++) {
    const message = await nextMessage(services, session, chat, turn);
    if (message === null) break;
    last = await session.call(message, { signal });
    chat.replied?.(last);
    if (chat.task !== undefined) break;
  }
  return last;
}

/**
 * The person's next message: `--task`'s text for the first turn, else a question to the
 * person through the run's desk (the TUI's prompt, the terminal, a script); null once the
 * person ends the chat, cannot answer, or lets the question time out.
 */
async function nextMessage(
  services: RunServices,
  session: AgentSession,
  chat: ChatRoot,
  turn: number,
): Promise<string | null> {
  if (chat.task !== undefined) return turn === 1 ? chat.task : null;
  const callId = `chat-${turn}`;
  let answered: EventOf<'human.answered'> | undefined;
  const unsubscribe = services.bus.subscribe((event: MissionEvent) => {
    if (event.type === 'human.answered' && event.callId === callId) answered = event;
  });
  try {
    const answer = await services.human
      .askerFor(session.actorId)
      .ask(chatQuestion(chat.agent, turn), { callId, signal: services.signal });
    const how = answered?.how ?? 'person';
    return how === 'person' || how === 'script' ? (isChatEnd(answer) ? null : answer) : null;
  } catch (error) {
    // Only the run's cancellation rejects a question: the chat ends with the run.
    if (services.signal.aborted) return null;
    throw error;
  } finally {
    unsubscribe();
  }
}
