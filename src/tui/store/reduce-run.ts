/** Run and mission events: the header's facts and the mission nodes. */
import { actorId, type MissionEvent } from '../../base/events.ts';
// Only the constant: the store loads none of the chat's runtime.
import { CHAT_TASK } from '../../actors/chat/chat-messages.ts';
import { finishActor, finishSubtree, patchActor } from './actor-tree.ts';
import type { StateDraft } from './draft.ts';
import { addError, usageTokens } from './outputs.ts';
import { countEarlierSessions } from './reduce-costs.ts';

/** Applies a run or mission event; returns false when the event is not one. */
export function reduceRun(draft: StateDraft, event: MissionEvent): boolean {
  switch (event.type) {
    case 'run.started':
      draft.patchHeader({
        mission: draft.header.mission ?? event.mission,
        status: 'running',
        startedAt: draft.header.startedAt ?? event.time,
        sessionStartedAt: event.time,
        earlierMs: event.before?.durationMs ?? 0,
        durationMs: null,
      });
      if (event.before !== undefined) countEarlierSessions(draft, event.before);
      if (event.chat !== undefined)
        draft.set('chatAgent', actorId.agent(CHAT_TASK, event.chat.agent));
      return true;
    case 'run.finished':
      draft.patchHeader({
        status: event.outcome,
        durationMs: event.durationMs,
        tokens: usageTokens(event.usage),
        costPico: BigInt(event.costPico),
      });
      return true;
    case 'mission.started':
      draft.set('currentMission', event.mission);
      draft.patchHeader({
        mission: event.mission,
        startedAt: draft.header.startedAt ?? event.time,
        status: 'running',
      });
      patchActor(draft, rootOf(draft, event.mission), { status: 'running' });
      return true;
    case 'mission.succeeded':
      finishActor(draft, rootOf(draft, event.mission), 'succeeded');
      return true;
    case 'mission.failed':
      finishActor(draft, rootOf(draft, event.mission), 'failed');
      // A chat's root already shows its task's error; the mission's only repeats it.
      if (draft.state.chatAgent === null) addError(draft, `mission:${event.mission}`, event.error);
      return true;
    case 'mission.cancelled':
      finishSubtree(draft, rootOf(draft, event.mission), 'cancelled');
      addError(draft, rootOf(draft, event.mission), `cancelled: ${event.reason}`);
      return true;
    default:
      return false;
  }
}

/** The node a mission's start and end mark: the mission, or a chat's agent (the tree's root). */
function rootOf(draft: StateDraft, mission: string): string {
  return draft.state.chatAgent ?? `mission:${mission}`;
}
