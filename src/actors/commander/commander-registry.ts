/**
 * The finished commanders of one mission, kept as plain data after their actors stopped:
 * their conversation (for `ask_commander` forks) and their agent sessions (for `ask_agent`).
 *
 * A 10,000-item parallel iteration keeps 10,000 of them, so each is stored compactly: the
 * conversation as its JSON text (about a third of the message objects' heap size, parsed
 * again only when a question reaches that commander) and no agent map of its own when the
 * commander used no agent. Model, system prompt and tools are shared with the task.
 */
import type {
  Message,
  ReasoningLevel,
  ResolvedModel,
  ToolDefinition,
} from '../../models/model-types.ts';
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

/** What the registry keeps of a record: everything but the messages, which are JSON text. */
interface StoredCommander extends Omit<CommanderRecord, 'messages' | 'reasoning'> {
  reasoning: ReasoningLevel | undefined;
  conversation: string;
}

/** Shared by every commander that used no agent (most items of an iteration). */
const NO_AGENTS: ReadonlyMap<string, AgentSession> = new Map();

/** Finished commanders by task and item. */
export class CommanderRegistry {
  private readonly records = new Map<string, Map<number | null, StoredCommander>>();

  /** Keeps a finished commander; a later record of the same task and item replaces it. */
  record(record: CommanderRecord): void {
    // One literal shape for every stored commander: spreading the record gave each its own
    // hidden class in V8 (about 300 bytes more per finished item).
    const stored: StoredCommander = {
      task: record.task,
      index: record.index,
      actorId: record.actorId,
      model: record.model,
      reasoning: record.reasoning,
      system: record.system,
      tools: record.tools,
      conversation: JSON.stringify(record.messages),
      agents: record.agents.size === 0 ? NO_AGENTS : record.agents,
    };
    const byIndex = this.records.get(record.task) ?? new Map<number | null, StoredCommander>();
    byIndex.set(record.index, stored);
    this.records.set(record.task, byIndex);
  }

  /** The commander of `task` (item `index` for parallel iterations), its conversation rebuilt. */
  get(task: string, index: number | null): CommanderRecord | undefined {
    const stored = this.records.get(task)?.get(index);
    if (stored === undefined) return undefined;
    const { conversation, reasoning, ...rest } = stored;
    const messages = JSON.parse(conversation) as Message[];
    return reasoning === undefined ? { ...rest, messages } : { ...rest, reasoning, messages };
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
