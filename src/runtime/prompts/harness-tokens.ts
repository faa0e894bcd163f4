/**
 * The fixed cost of a task's commander: its system prompt plus its tool schemas, estimated as
 * bytes / 4. `sortie verify --tokens` reports it; the target for a plain task is ≤ 1,500.
 */
import type { Config } from '../../config/config-types.ts';
import { SortieError } from '../../base/errors.ts';
import { commanderTools } from '../../tools/commander/index.ts';
import { commanderSystemPrompt } from './commander-prompt.ts';
import { taskPromptSpec, taskShape, type AncestorFacts } from './task-prompt-spec.ts';

/** Bytes per token of the estimate. */
export const BYTES_PER_TOKEN = 4;

/** The task named is not in the mission. */
export class UnknownTaskError extends SortieError {
  constructor(
    readonly mission: string,
    readonly task: string,
  ) {
    super(`mission "${mission}" has no task "${task}"`);
  }
}

/** Estimated tokens of a text: its UTF-8 bytes / 4, rounded up. */
export function estimateTokens(text: string): number {
  return Math.ceil(Buffer.byteLength(text, 'utf8') / BYTES_PER_TOKEN);
}

/**
 * The harness tokens of a task's commander before any run: dependencies appear with empty
 * summaries (their size is the run's), and agents of ancestors are assumed askable.
 */
export function harnessTokens(config: Config, missionName: string, taskName: string): number {
  const mission = config.missions.get(missionName);
  const task = mission?.tasks.get(taskName);
  if (mission === undefined || task === undefined)
    throw new UnknownTaskError(missionName, taskName);
  const ancestors: AncestorFacts = {
    dependencies: task.dependsOn.map((name) => ({ task: name, summary: '' })),
    ancestorsUsedAgents: task.dependsOn.length > 0,
  };
  const system = commanderSystemPrompt(taskPromptSpec(config, mission, task, ancestors));
  const tools = commanderTools(taskShape(config, mission, task, ancestors));
  return estimateTokens(system) + estimateTokens(JSON.stringify(tools));
}
