/**
 * A mission's task results, read from the mission machine's task states (their one store):
 * every task in declaration order, with what its actor ended with once it settled.
 */
import type { MissionConfig } from '../../config/config-types.ts';
import type { MissionTaskStates } from '../../machines/mission-scheduling.ts';
import type { TaskResult } from '../contracts.ts';

/** The result of every task of the mission, in declaration order. */
export function taskResults(
  mission: MissionConfig,
  states: Readonly<MissionTaskStates>,
): TaskResult[] {
  return [...mission.tasks.keys()].map((name) => taskResult(mission.name, name, states));
}

function taskResult(
  mission: string,
  name: string,
  states: Readonly<MissionTaskStates>,
): TaskResult {
  const status = states.statuses[name] ?? 'pending';
  // A task still running when the mission stopped on a defect never settled.
  const result: TaskResult = { mission, name, status: status === 'running' ? 'pending' : status };
  const settled = states.settled[name];
  if (settled === undefined) return result;
  const { outcome } = settled;
  if (outcome !== null) {
    result.summary = outcome.summary;
    if (outcome.output !== undefined) result.output = outcome.output;
    if (outcome.items !== undefined) result.items = outcome.items;
    result.route = outcome.route;
  }
  if (settled.error !== null) result.error = settled.error;
  return result;
}
