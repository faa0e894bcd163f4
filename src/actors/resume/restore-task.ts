/**
 * A task that had succeeded before the restart is not run again: its outcome, outputs and
 * summary come from the journal into the knowledge store (for `query_task_output` and the
 * dependency context), and its commanders' conversations and agents into the registry (for
 * `ask_commander` and `ask_agent`).
 */
import type { MissionJournal, SucceededTask } from '../../journal/restore.ts';
import { toolCallsOf } from '../../machines/turn-types.ts';
import type { Message } from '../../models/types.ts';
import { actorId } from '../../runtime/events.ts';
import { itemIdOf } from '../../runtime/knowledge-store.ts';
import { commanderTools } from '../../tools/commander/index.ts';
import type { CommanderRecord } from '../commander/commander-registry.ts';
import type { TaskItemRecord, TaskOutcome } from '../mission/task-outcome.ts';
import type { PreparedTask } from '../mission/task-preparation.ts';
import { commanderScope } from '../mission/task-preparation.ts';
import { restoreAgentSessions } from './continue-commander.ts';

/** Rebuilds the succeeded task `done` of the prepared task and returns its outcome. */
export function restoreSucceededTask(
  prepared: PreparedTask,
  journal: MissionJournal,
  done: SucceededTask,
): TaskOutcome {
  const { knowledge, datasets } = prepared.runtime.services;
  const task = prepared.config.name;
  const iterator = prepared.config.iterator;
  const commander = actorId.commander(task);
  const missionInputs = missionInputsOf(journal.conversations.get(commander) ?? []);
  if (iterator === undefined) {
    knowledge.recordTask(task, { summary: done.summary, output: done.output });
    keepCommander(prepared, journal, null);
    return {
      status: 'succeeded',
      summary: done.summary,
      ...(prepared.config.output !== undefined ? { output: done.output } : {}),
      route: done.route,
      missionInputs,
    };
  }
  datasets.lock(iterator.dataset, task);
  const items = datasets.items(iterator.dataset);
  const records: TaskItemRecord[] = items.map((item, index) => {
    const output =
      (iterator.parallel
        ? journal.items.get(task)?.get(index)?.output
        : journal.outputs.get(commander)?.get(index)) ?? null;
    knowledge.recordIteration(task, { index, item, status: 'succeeded', output });
    if (iterator.parallel) keepCommander(prepared, journal, index);
    return { index, itemId: itemIdOf(item, index), status: 'succeeded', output };
  });
  if (!iterator.parallel) keepCommander(prepared, journal, null);
  knowledge.setIteratedSummary(task, done.summary);
  return {
    status: 'succeeded',
    summary: done.summary,
    route: done.route,
    missionInputs,
    items: records,
  };
}

/** Registers the finished commander of `index` as if it had just completed. */
function keepCommander(
  prepared: PreparedTask,
  journal: MissionJournal,
  index: number | null,
): void {
  const scope = commanderScope(prepared, index);
  const messages = journal.conversations.get(scope.actorId);
  if (messages === undefined) return;
  journal.conversations.delete(scope.actorId);
  restoreAgentSessions(scope, journal);
  const record: CommanderRecord = {
    task: scope.task,
    index,
    actorId: scope.actorId,
    model: prepared.model,
    ...(prepared.reasoning !== undefined ? { reasoning: prepared.reasoning } : {}),
    system: prepared.system,
    tools: commanderTools(prepared.commanderTask),
    messages,
    agents: scope.sessions,
  };
  scope.runtime.commanders.record(record);
  // Questions asked before the restart: later ones build on their answers.
  const fork = journal.conversations.get(actorId.fork(scope.actorId));
  if (fork !== undefined) scope.runtime.forks.restore(record, fork);
}

/** The `mission_inputs` of the commander's last `task_complete` (a route to a mission). */
function missionInputsOf(messages: readonly Message[]): Record<string, unknown> | null {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index] as Message;
    if (message.role !== 'assistant') continue;
    const call = toolCallsOf(message).findLast((candidate) => candidate.name === 'task_complete');
    if (call === undefined) continue;
    try {
      const inputs = (JSON.parse(call.arguments) as { mission_inputs?: unknown }).mission_inputs;
      return inputs !== null && typeof inputs === 'object' && !Array.isArray(inputs)
        ? (inputs as Record<string, unknown>)
        : null;
    } catch {
      return null;
    }
  }
  return null;
}
