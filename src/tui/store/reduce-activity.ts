/**
 * What actors are doing: model requests and streamed text, tool calls, conversations, held
 * gate points, errors and warnings.
 */
import { escapeControlCharacters } from '../../base/control-characters.ts';
import { actorId, parseActorId, type EventOf, type MissionEvent } from '../../base/events.ts';
import { samePoint } from '../../base/gate-point.ts';
import { isForkPoint } from '../../journal/fork-journal.ts';
import type { GatePoint } from '../../runtime/gate.ts';
import { ensureActor, finishActor, patchActor } from './actor-tree.ts';
import type { StateDraft } from './draft.ts';
import type { ActorSignal } from './state.ts';
import { addError } from './outputs.ts';

const FORK_SUFFIX = '#fork';

function argumentField(argumentsText: string, field: string): string | null {
  try {
    const parsed: unknown = JSON.parse(argumentsText);
    if (typeof parsed !== 'object' || parsed === null) return null;
    const value = (parsed as Record<string, unknown>)[field];
    // Decoded from JSON text, the value may hold control characters its escapes spelt.
    return typeof value === 'string' ? escapeControlCharacters(value) : null;
  } catch {
    // Models may send malformed arguments; the plain "calling" line is shown instead.
    return null;
  }
}

/** The activity line for a tool call: delegations name who is being waited for. */
function toolActivity(tool: string, argumentsText: string): string {
  if (tool === 'call_agent') {
    const agent = argumentField(argumentsText, 'name');
    if (agent !== null) return `waiting for ${agent}`;
  }
  if (tool === 'ask_agent') {
    const agent = argumentField(argumentsText, 'agent_id');
    if (agent !== null) return `asking ${agent}`;
  }
  if (tool === 'get_commander_answer') return 'waiting for an answer';
  return `calling ${tool}`;
}

/**
 * The agent a commander's `call_agent` runs, if it is in the tree: no event of its own says
 * that an agent has finished, its commander's call returning does.
 */
function calledAgent(draft: StateDraft, commander: string, tool: string, argumentsText: string) {
  if (tool !== 'call_agent') return undefined;
  const parsed = parseActorId(commander);
  const name = argumentField(argumentsText, 'name');
  if (parsed?.kind !== 'commander' || name === null) return undefined;
  return draft.actor(actorId.agent(parsed.name, name, parsed.index ?? undefined));
}

function onToolCalled(draft: StateDraft, event: EventOf<'tool.called'>): void {
  patchActor(draft, event.actor, { activity: toolActivity(event.tool, event.arguments) });
  // Called again, a finished agent works again (its conversation goes on).
  const agent = calledAgent(draft, event.actor, event.tool, event.arguments);
  if (agent !== undefined) patchActor(draft, agent.id, { status: 'running' });
  const call = {
    callId: event.callId,
    tool: event.tool,
    arguments: event.arguments,
    result: null,
    isError: false,
    durationMs: null,
    forkSeq: null,
  };
  draft.patchDetail(event.actor, { toolCalls: [...draft.detail(event.actor).toolCalls, call] });
}

/** What the tree's activity column says a held actor waits before. */
const HELD_BEFORE: Record<GatePoint['kind'], (point: GatePoint) => string> = {
  model: () => 'model request',
  tool: (point) => point.tool ?? 'tool',
  route: () => 'route',
  error: (point) => `error of ${point.tool ?? 'tool'}`,
};

function onGatePaused(draft: StateDraft, point: GatePoint): void {
  draft.set('held', [...draft.state.held, point]);
  draft.patchHeader({ paused: true });
  patchActor(draft, point.actor, { activity: `held before ${HELD_BEFORE[point.kind](point)}` });
}

function onToolCompleted(draft: StateDraft, event: EventOf<'tool.completed'>): void {
  const calls = draft.detail(event.actor).toolCalls;
  const position = calls.findLastIndex((call) => call.callId === event.callId);
  const completed = {
    callId: event.callId,
    tool: event.tool,
    arguments: position < 0 ? '' : (calls[position]?.arguments ?? ''),
    result: event.result,
    isError: event.isError,
    durationMs: event.durationMs,
    forkSeq: isForkPoint(event) ? event.seq : null,
  };
  const toolCalls =
    position < 0
      ? [...calls, completed]
      : calls.map((call, at) => (at === position ? completed : call));
  draft.patchDetail(event.actor, { toolCalls });
  patchActor(draft, event.actor, { activity: '' });
  const agent = calledAgent(draft, event.actor, event.tool, completed.arguments);
  if (agent !== undefined) finishActor(draft, agent.id, event.isError ? 'failed' : 'succeeded');
}

function onGateResumed(draft: StateDraft, point: GatePoint): void {
  const before = draft.state.held;
  const position = before.findIndex((held) => samePoint(held, point));
  const held = position < 0 ? before : before.filter((_, at) => at !== position);
  draft.set('held', held);
  draft.patchHeader({ paused: held.length > 0 });
  if (draft.actor(point.actor)?.activity.startsWith('held')) {
    patchActor(draft, point.actor, { activity: '' });
  }
}

function onMessage(draft: StateDraft, event: EventOf<'message.appended'>): void {
  if (event.conversation.endsWith(FORK_SUFFIX)) {
    const owner = event.conversation.slice(0, -FORK_SUFFIX.length);
    ensureActor(draft, owner);
    draft.patchDetail(owner, {
      forkMessages: [...draft.detail(owner).forkMessages, event.message],
    });
    return;
  }
  ensureActor(draft, event.conversation);
  const detail = draft.detail(event.conversation);
  // A reply's assistant message follows its model.response: it carries that seq.
  const seq = event.message.role === 'assistant' ? detail.pendingReplySeq : null;
  draft.patchDetail(event.conversation, {
    messages: [...detail.messages, event.message],
    messageSeqs: [...detail.messageSeqs, seq],
    ...(seq === null ? {} : { pendingReplySeq: null }),
  });
}

/** Applies an activity event; returns false when the event is not one. */
export function reduceActivity(draft: StateDraft, event: MissionEvent): boolean {
  switch (event.type) {
    case 'model.request':
      patchActor(draft, event.actor, { activity: 'thinking' });
      // `system` is sent only when it changed: the detail keeps the last one seen.
      draft.patchDetail(event.actor, {
        ...(event.system !== undefined ? { system: event.system } : {}),
        streaming: '',
      });
      return true;
    case 'model.delta':
      draft.patchDetail(event.actor, {
        streaming: draft.detail(event.actor).streaming + event.text,
      });
      return true;
    case 'model.response':
      patchActor(draft, event.actor, { activity: '' });
      draft.patchDetail(event.actor, {
        streaming: '',
        pendingReplySeq: isForkPoint(event) ? event.seq : null,
      });
      // A refused, blocked or filtered reply: what the provider said belongs with the errors.
      if (event.stopDetail !== undefined)
        addError(draft, event.actor, `model stopped (${event.stopReason}): ${event.stopDetail}`);
      return true;
    case 'model.retry':
      patchActor(draft, event.actor, { activity: `retrying model (attempt ${event.attempt})` });
      addError(draft, event.actor, `model retry ${event.attempt}: ${event.message}`);
      return true;
    case 'message.appended':
      onMessage(draft, event);
      return true;
    case 'tool.called':
      onToolCalled(draft, event);
      return true;
    case 'tool.completed':
      onToolCompleted(draft, event);
      return true;
    case 'mcp.progressed': {
      const total = event.total === null ? '' : `/${event.total}`;
      patchActor(draft, event.actor, {
        activity: `mcp "${event.server}" progress ${event.progress}${total}`,
      });
      return true;
    }
    case 'gate.paused':
      onGatePaused(draft, event.point);
      return true;
    case 'gate.resumed':
      onGateResumed(draft, event.point);
      return true;
    case 'signal.raised':
      addSignal(draft, event.actor, { signal: event.signal, message: event.message });
      return true;
    case 'budget.warning':
      addSignal(draft, event.actor, {
        signal: 'budget',
        message: `budget warning (${event.scope} ${event.subject})`,
      });
      return true;
    case 'budget.exceeded':
      if (ensureActor(draft, event.actor) !== undefined)
        addError(draft, event.actor, event.message);
      return true;
    case 'warning':
      if (ensureActor(draft, event.actor) !== undefined) {
        addError(draft, event.actor, `warning: ${event.message}`);
      }
      return true;
    default:
      return false;
  }
}

/** Marks an actor with a signal (the tree shows its kind, the detail pane what it saw). */
function addSignal(draft: StateDraft, actor: string, signal: ActorSignal): void {
  const node = ensureActor(draft, actor);
  if (node === undefined) return;
  const message = escapeControlCharacters(signal.message);
  patchActor(draft, actor, { signals: [...node.signals, { ...signal, message }] });
}
