/**
 * The run's signal watch: reads the run's events and raises `signal.raised` when an actor
 * looks stuck — a commander that turns without completing a subtask (stall), the same tool
 * with the same arguments again and again (loop), the same task handed to the same agent
 * again (re-delegation). It only watches: nothing it raises changes what the run does unless
 * a breakpoint asks. What counts as one session: a commander's calls count until it completes
 * a subtask, its hand-overs and turns until it takes its next item (`dataset_next`); an
 * agent's calls count until its commander gives it a new task. Counts start with the process:
 * a resumed run counts from the resume.
 */
import {
  actorId,
  parseActorId,
  type EventInput,
  type MissionEvent,
  type ParsedActorId,
  UNJOURNALED_TYPES,
} from '../base/events.ts';
import type { Message } from '../base/conversation.ts';
import type { EventListener } from './event-bus.ts';

/** Model turns without a completed subtask before a commander counts as stalled. */
export const DEFAULT_STALL_TURNS = 6;
/** Identical calls of one tool in one actor's session before it counts as looping. */
export const DEFAULT_LOOP_CALLS = 3;

/** What the watch needs to know of the project. */
export interface SignalSettings {
  /** The stall threshold of the commanders of a mission (its `commander { stall_turns }`). */
  stallTurnsOf(mission: string): number;
  /** Identical calls that make a loop. */
  loopCalls?: number;
}

interface ActorWatch {
  turnsWithoutProgress: number;
  completedSubtasks: number;
  stallRaised: boolean;
  /** Identical calls by tool and normalized arguments. */
  calls: Map<string, number>;
  /** Hand-overs by agent and normalized task text (commanders only). */
  delegations: Map<string, number>;
}

/** The watch's listener, and how many actors it keeps counts for (what the run holds). */
export type SignalWatch = EventListener & { watching(): number };

/**
 * Watches a run's events and emits its signals through `emit` (the run's bus: the signal is
 * journaled and shown like every event). Subscribe the returned listener to the bus.
 */
export function createSignalWatch(
  settings: SignalSettings,
  emit: (input: EventInput) => void,
): SignalWatch {
  const loopCalls = settings.loopCalls ?? DEFAULT_LOOP_CALLS;
  const actors = new Map<string, ActorWatch>();
  let stallTurns = DEFAULT_STALL_TURNS;

  const watchOf = (actor: string): ActorWatch => {
    let watch = actors.get(actor);
    if (watch === undefined) {
      watch = {
        turnsWithoutProgress: 0,
        completedSubtasks: 0,
        stallRaised: false,
        calls: new Map(),
        delegations: new Map(),
      };
      actors.set(actor, watch);
    }
    return watch;
  };

  const onTurn = (actor: string, message: Message): void => {
    if (parseActorId(actor)?.kind !== 'commander') return;
    const watch = watchOf(actor);
    watch.turnsWithoutProgress += 1;
    if (watch.stallRaised || watch.turnsWithoutProgress < stallTurns) return;
    // A turn that completes a subtask or the task is judged by what its call does.
    if (callsAny(message, PROGRESS_TOOLS)) return;
    watch.stallRaised = true;
    emit({
      type: 'signal.raised',
      actor,
      signal: 'stall',
      count: watch.turnsWithoutProgress,
      message: `stalled: ${watch.turnsWithoutProgress} model turns without completing a subtask`,
    });
  };

  const onPlan = (actor: string, completed: number): void => {
    const watch = watchOf(actor);
    if (completed > watch.completedSubtasks) {
      watch.turnsWithoutProgress = 0;
      watch.stallRaised = false;
      // Completing subtask after subtask with the same call is progress, not a loop.
      watch.calls.clear();
    }
    watch.completedSubtasks = completed;
  };

  const onCall = (actor: string, tool: string, args: string): void => {
    const commander = parseActorId(actor);
    if (tool === 'dataset_next' && commander?.kind === 'commander') {
      // A sequential task's commander takes its next item: everything starts again.
      actors.delete(actor);
      return;
    }
    const watch = watchOf(actor);
    const key = `${tool}\u0000${normalizedArguments(args)}`;
    const count = (watch.calls.get(key) ?? 0) + 1;
    watch.calls.set(key, count);
    if (count === loopCalls) {
      emit({
        type: 'signal.raised',
        actor,
        signal: 'loop',
        count,
        message: `looping: ${tool} called ${count} times with the same arguments`,
        tool,
        arguments: args,
      });
    }
    if (tool === 'call_agent' && commander?.kind === 'commander') {
      onDelegation(actor, watch, args, commander);
    }
  };

  const onDelegation = (
    actor: string,
    watch: ActorWatch,
    args: string,
    commander: ParsedActorId,
  ): void => {
    const handOver = delegationOf(args);
    if (handOver === undefined) return;
    // The agent's new task is a new session of its calls.
    const agent = actorId.agent(commander.name, handOver.name, commander.index ?? undefined);
    actors.get(agent)?.calls.clear();
    const key = `${handOver.name}\u0000${handOver.task}`;
    const count = (watch.delegations.get(key) ?? 0) + 1;
    watch.delegations.set(key, count);
    if (count < 2) return;
    emit({
      type: 'signal.raised',
      actor,
      signal: 'redelegation',
      count,
      message: `re-delegating: the same task given to ${handOver.name} ${count} times`,
      tool: 'call_agent',
      arguments: args,
    });
  };

  /**
   * A new try of an item starts its commander and agents afresh, and a settled item's are
   * dropped: a run of 100,000 items keeps counts for its live items only.
   */
  const forgetItem = (task: string, index: number): void => {
    const commander = `commander:${task}[${index}]`;
    const agents = `agent:${task}[${index}]/`;
    for (const actor of [...actors.keys()]) {
      if (actor === commander || actor.startsWith(agents)) actors.delete(actor);
    }
  };

  const listener = (event: MissionEvent): void => {
    switch (event.type) {
      case 'mission.started':
        stallTurns = settings.stallTurnsOf(event.mission);
        return;
      case 'model.response':
        onTurn(event.actor, event.message);
        return;
      case 'plan.updated':
        onPlan(event.actor, completedCount(event.subtasks));
        return;
      case 'tool.called':
        onCall(event.actor, event.tool, event.arguments);
        return;
      case 'iteration.started':
      case 'iteration.succeeded':
      case 'iteration.failed':
        forgetItem(event.task, event.index);
        return;
      default:
        return;
    }
  };
  // Deltas are many per turn and say nothing a signal reads: the bus skips the watch for them.
  return Object.assign(listener, {
    ignoredTypes: UNJOURNALED_TYPES,
    watching: () => actors.size,
  });
}

/** The commander tools whose call may be the progress a stall waits for. */
const PROGRESS_TOOLS: ReadonlySet<string> = new Set(['complete_subtask', 'task_complete']);

function callsAny(message: Message, tools: ReadonlySet<string>): boolean {
  return message.parts.some((part) => part.type === 'tool_call' && tools.has(part.name));
}

function completedCount(subtasks: ReadonlyArray<{ status: string }>): number {
  return subtasks.filter((subtask) => subtask.status === 'completed').length;
}

/**
 * Arguments as the model meant them: JSON with its keys sorted and no spacing, so `{"a":1,
 * "b":2}` and `{ "b": 2, "a": 1 }` are the same call; text that is not JSON as it is, trimmed.
 */
export function normalizedArguments(args: string): string {
  try {
    return JSON.stringify(JSON.parse(args), (_key, value: unknown) =>
      value !== null && typeof value === 'object' && !Array.isArray(value)
        ? Object.fromEntries(
            Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
              a < b ? -1 : a > b ? 1 : 0,
            ),
          )
        : value,
    );
  } catch {
    return args.trim();
  }
}

/** The agent and task text of a `call_agent` call; whitespace and case do not make a new task. */
function delegationOf(args: string): { name: string; task: string } | undefined {
  try {
    const parsed = JSON.parse(args) as { name?: unknown; task?: unknown };
    if (typeof parsed.name !== 'string' || typeof parsed.task !== 'string') return undefined;
    return { name: parsed.name, task: parsed.task.trim().replace(/\s+/g, ' ').toLowerCase() };
  } catch {
    return undefined;
  }
}
