/**
 * A task that had succeeded before the restart is not run again: its outcome, outputs and
 * summary come from the journal into the knowledge store (for `query_task_output` and the
 * dependency context), and its commanders' conversations and agents into the registry (for
 * `ask_commander` and `ask_agent`).
 */
import type { MissionJournal, SucceededTask } from '../../journal/mission-journal.ts';
import { actorId } from '../../base/events.ts';
import { itemIdOf } from '../../runtime/knowledge-store.ts';
import { keepFinished } from '../commander/commander-actor.ts';
import { commanderLaunch } from '../mission/task-commander.ts';
import type { TaskItemRecord, TaskOutcome } from '../../machines/task-outcome.ts';
import type { PreparedTask } from '../mission/task-preparation.ts';
import { commanderScope } from '../mission/task-preparation.ts';
import {
  acceptedCompletion,
  restoreAgentSessions,
  restoredConversation,
} from './continue-commander.ts';

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
  const conversation = restoredConversation(journal, commander);
  const missionInputs =
    conversation === undefined
      ? null
      : (acceptedCompletion(conversation.messages, conversation)?.missionInputs ?? null);
  if (iterator === undefined) {
    knowledge.recordTask(task, { summary: done.summary, output: done.output });
    keepRestoredCommander(prepared, journal, null);
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
    if (iterator.parallel) keepRestoredCommander(prepared, journal, index);
    return { index, itemId: itemIdOf(item, index), status: 'succeeded', output };
  });
  if (!iterator.parallel) keepRestoredCommander(prepared, journal, null);
  knowledge.setIteratedSummary(task, done.summary);
  return {
    status: 'succeeded',
    summary: done.summary,
    route: done.route,
    missionInputs,
    items: records,
  };
}

/**
 * Registers the finished commander of `index` from `journal` as if it had just completed: a
 * resumed run's, or an item that ran on a worker (relayed-items.ts). Its conversations are
 * taken out of `journal`.
 */
export function keepRestoredCommander(
  prepared: PreparedTask,
  journal: MissionJournal,
  index: number | null,
): void {
  // Nothing can ask a task no other task depends on, routes or sends to (see keepFinished).
  if (!prepared.runtime.graph.hasDescendants(prepared.config.name)) return;
  const scope = commanderScope(prepared, index);
  const restored = restoredConversation(journal, scope.actorId);
  if (restored === undefined) return;
  journal.conversations.delete(scope.actorId);
  restoreAgentSessions(scope, journal);
  const messages = [...restored.messages];
  const launch = commanderLaunch(prepared, scope, { task: prepared.commanderTask, messages });
  const record = keepFinished(launch, messages);
  // Questions asked before the restart: later ones build on their answers.
  const fork = journal.conversations.get(actorId.fork(scope.actorId));
  if (record !== undefined && fork !== undefined) scope.runtime.forks.restore(record, fork);
}
