/**
 * The finished commanders of one mission, kept after their actors stopped: their conversation
 * (for `ask_commander` forks) and their agent sessions (for `ask_agent`).
 *
 * A 100,000-item parallel iteration keeps 100,000 of them, so a finished commander keeps
 * nothing in memory but where its conversation lies in the mission's conversation file
 * (base/append-file.ts; parsed again only when a question reaches that commander) and, when
 * it used agents, its agent sessions. Model, system prompt and tools are the task's, kept once.
 */
import { actorId } from '../../base/events.ts';
import type {
  Message,
  ReasoningLevel,
  ResolvedModel,
  ToolDefinition,
} from '../../models/model-types.ts';
import type { AgentSession } from '../contracts.ts';
import { AppendFile, type TextPosition } from '../../base/append-file.ts';
import { PositionTable } from '../../base/position-table.ts';

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

/** What every commander of a task shares (a record that differs keeps its own). */
interface CommanderSetup {
  model: ResolvedModel;
  reasoning: ReasoningLevel | undefined;
  system: string;
  tools: readonly ToolDefinition[];
}

/** The finished commanders of one task. */
interface TaskCommanders {
  setup: CommanderSetup;
  /** Conversations of parallel items, by item index. */
  items: PositionTable;
  /** The conversation of the task's one commander (not a parallel item). */
  single: TextPosition | undefined;
  /** Setups of the rare records whose setup is not the task's. */
  otherSetups: Map<number | null, CommanderSetup>;
  /** Agent sessions of the commanders that had any. */
  agents: Map<number | null, ReadonlyMap<string, AgentSession>>;
}

/** Shared by every commander that used no agent (most items of an iteration). */
const NO_AGENTS: ReadonlyMap<string, AgentSession> = new Map();

function setupOf(record: CommanderRecord): CommanderSetup {
  const { model, reasoning, system, tools } = record;
  return { model, reasoning, system, tools };
}

function sameSetup(left: CommanderSetup, right: CommanderSetup): boolean {
  return (
    left.model === right.model &&
    left.reasoning === right.reasoning &&
    left.system === right.system &&
    left.tools === right.tools
  );
}

/** The start of the name of the run folder's folder of finished commanders' conversations. */
export const FINISHED_COMMANDERS_PREFIX = 'finished-commanders-';

/** Finished commanders by task and item. */
export class CommanderRegistry {
  private readonly tasks = new Map<string, TaskCommanders>();
  private readonly file: AppendFile;

  /** `folder` holds the conversation file while the mission runs (the run folder). */
  constructor(folder: string) {
    this.file = new AppendFile(folder, FINISHED_COMMANDERS_PREFIX, 'conversations.jsonl');
  }

  /** Keeps a finished commander; a later record of the same task and item replaces it. */
  record(record: CommanderRecord): void {
    const setup = setupOf(record);
    let commanders = this.tasks.get(record.task);
    if (commanders === undefined) {
      commanders = {
        setup,
        items: new PositionTable(),
        single: undefined,
        otherSetups: new Map(),
        agents: new Map(),
      };
      this.tasks.set(record.task, commanders);
    }
    const position = this.file.append(JSON.stringify(record.messages));
    if (record.index === null) commanders.single = position;
    else commanders.items.set(record.index, position);
    if (sameSetup(setup, commanders.setup)) commanders.otherSetups.delete(record.index);
    else commanders.otherSetups.set(record.index, setup);
    if (record.agents.size === 0) commanders.agents.delete(record.index);
    else commanders.agents.set(record.index, record.agents);
  }

  /** Whether `task` has a finished commander (item `index` for parallel iterations). */
  has(task: string, index: number | null): boolean {
    return this.positionOf(task, index) !== undefined;
  }

  /** The commander of `task` (item `index` for parallel iterations), its conversation read back. */
  get(task: string, index: number | null): CommanderRecord | undefined {
    const commanders = this.tasks.get(task);
    const position = this.positionOf(task, index);
    if (commanders === undefined || position === undefined) return undefined;
    const { reasoning, ...setup } = commanders.otherSetups.get(index) ?? commanders.setup;
    const messages = JSON.parse(this.file.read(position)) as Message[];
    return {
      task,
      index,
      actorId: actorId.commander(task, index ?? undefined),
      ...setup,
      ...(reasoning === undefined ? {} : { reasoning }),
      messages,
      agents: commanders.agents.get(index) ?? NO_AGENTS,
    };
  }

  /** Whether some commander of `task` used an agent. */
  usedAgents(task: string): boolean {
    for (const sessions of this.tasks.get(task)?.agents.values() ?? []) {
      for (const session of sessions.values()) if (session.finishedOnce) return true;
    }
    return false;
  }

  /** Agents that finished at least once in commanders of `tasks`, in task then item order. */
  askableAgents(tasks: readonly string[]): AskableAgent[] {
    const found: AskableAgent[] = [];
    for (const task of tasks) {
      const byIndex = this.tasks.get(task)?.agents;
      if (byIndex === undefined) continue;
      const indexes = [...byIndex.keys()].sort((a, b) => (a ?? -1) - (b ?? -1));
      for (const index of indexes) {
        for (const [name, session] of byIndex.get(index) ?? NO_AGENTS) {
          if (!session.finishedOnce) continue;
          const prefix = index === null ? task : `${task}[${index}]`;
          found.push({ qualifiedId: `${prefix}/${name}`, name, session });
        }
      }
    }
    return found;
  }

  /** Removes the conversation file: the mission is over, no question can come any more. */
  dispose(): void {
    this.file.dispose();
    this.tasks.clear();
  }

  private positionOf(task: string, index: number | null): TextPosition | undefined {
    const commanders = this.tasks.get(task);
    if (commanders === undefined) return undefined;
    return index === null ? commanders.single : commanders.items.get(index);
  }
}
