/**
 * The finished commanders of one mission, kept as plain data after their actors stopped:
 * their conversation (for `ask_commander` forks) and their agent sessions (for `ask_agent`).
 */
import type { Message, ReasoningLevel, ResolvedModel, ToolDefinition } from '../../models/types.ts';
import type { AgentSession } from '../contracts.ts';

/** One finished commander. `index` is the item of a parallel iteration, else null. */
export interface CommanderRecord {
  task: string;
  index: number | null;
  actorId: string;
  model: ResolvedModel;
  reasoning?: ReasoningLevel;
  system: string;
  tools: readonly ToolDefinition[];
  messages: readonly Message[];
  agents: ReadonlyMap<string, AgentSession>;
}

/** An agent session as `ask_agent` can address it. */
export interface AskableAgent {
  /** `task/agent` or `task[3]/agent`. */
  qualifiedId: string;
  name: string;
  session: AgentSession;
}

/** Finished commanders by task and item. */
export class CommanderRegistry {
  private readonly records = new Map<string, Map<number | null, CommanderRecord>>();

  /** Keeps a finished commander; a later record of the same task and item replaces it. */
  record(record: CommanderRecord): void {
    const byIndex = this.records.get(record.task) ?? new Map<number | null, CommanderRecord>();
    byIndex.set(record.index, record);
    this.records.set(record.task, byIndex);
  }

  /** The commander of `task` (item `index` for parallel iterations). */
  get(task: string, index: number | null): CommanderRecord | undefined {
    return this.records.get(task)?.get(index);
  }

  /** Whether some commander of `task` used an agent. */
  usedAgents(task: string): boolean {
    for (const record of this.records.get(task)?.values() ?? []) {
      for (const session of record.agents.values()) if (session.finishedOnce) return true;
    }
    return false;
  }

  /** Agents that finished at least once in commanders of `tasks`, in task then item order. */
  askableAgents(tasks: readonly string[]): AskableAgent[] {
    const found: AskableAgent[] = [];
    for (const task of tasks) {
      const byIndex = this.records.get(task);
      if (byIndex === undefined) continue;
      const records = [...byIndex.values()].sort((a, b) => (a.index ?? -1) - (b.index ?? -1));
      for (const record of records) {
        for (const [name, session] of record.agents) {
          if (!session.finishedOnce) continue;
          const prefix = record.index === null ? task : `${task}[${record.index}]`;
          found.push({ qualifiedId: `${prefix}/${name}`, name, session });
        }
      }
    }
    return found;
  }
}
