/** What one commander's tools need to know: where it runs, its agents and its ancestors. */
import type { AgentConfig } from '../../config/config-types.ts';
import type { AgentSession } from '../contracts.ts';
import type { MissionRuntime } from '../mission/mission-runtime.ts';

/** One commander: its task and item, actor id, agents, sessions and ancestors. */
export interface CommanderScope {
  runtime: MissionRuntime;
  task: string;
  /** The item of a parallel iteration, else null. */
  index: number | null;
  actorId: string;
  /** The agents this task may call, by name, in the task's order. */
  agents: ReadonlyMap<string, AgentConfig>;
  /** This commander's agent sessions (one per agent, made on first call). */
  sessions: Map<string, AgentSession>;
  /** The task's ancestors in topological order, fixed when the task started. */
  ancestors: readonly string[];
}

/** How the asking task reads in the question store: `y` or `y[1]`. */
export function askerName(scope: CommanderScope): string {
  return scope.index === null ? scope.task : `${scope.task}[${scope.index}]`;
}
