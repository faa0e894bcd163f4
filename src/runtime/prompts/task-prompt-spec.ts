/**
 * From configuration to what a commander is told: its prompt spec and the shape that picks
 * its tools. Shared by the commander wiring (with run-time facts) and `harnessTokens`.
 */
import { findAgent } from '../../config/mission-lookup.ts';
import type { Config, MissionConfig, TaskConfig } from '../../config/config-types.ts';
import type { TaskShape } from '../../tools/commander/index.ts';
import type { CommanderPromptSpec, PromptAgent, PromptDependency } from './commander-prompt.ts';

/** Run-time facts about a task's ancestors; `harnessTokens` assumes them from the config. */
export interface AncestorFacts {
  dependencies: readonly PromptDependency[];
  /** Some completed ancestor's commander used an agent. */
  ancestorsUsedAgents: boolean;
}

/** The agents a task may call, resolved by name (scoped first, then global). */
export function taskAgents(
  config: Config,
  mission: MissionConfig,
  task: TaskConfig,
): PromptAgent[] {
  return task.agents.flatMap((name) => {
    const agent = findAgent(config, mission, name);
    return agent === undefined ? [] : [{ name, personality: agent.personality }];
  });
}

/** The commander prompt spec of a task. */
export function taskPromptSpec(
  config: Config,
  mission: MissionConfig,
  task: TaskConfig,
  ancestors: AncestorFacts,
): CommanderPromptSpec {
  const spec: CommanderPromptSpec = {
    task: task.name,
    agents: taskAgents(config, mission, task),
    dependencies: ancestors.dependencies,
    sequential: task.iterator !== undefined && !task.iterator.parallel,
  };
  if (mission.directive !== undefined) spec.directive = mission.directive;
  if (task.output !== undefined) spec.output = task.output;
  if (task.routes !== undefined) {
    spec.routes = task.routes.map((route) => ({
      key: route.key,
      kind: route.target.kind,
      condition: route.condition,
    }));
  }
  return spec;
}

/** What decides the task's commander tools. */
export function taskShape(
  config: Config,
  mission: MissionConfig,
  task: TaskConfig,
  ancestors: AncestorFacts,
): TaskShape {
  const hasAgents = taskAgents(config, mission, task).length > 0;
  const shape: TaskShape = {
    hasAgents,
    hasAskableAgents: hasAgents || ancestors.ancestorsUsedAgents,
    hasAncestors: ancestors.dependencies.length > 0,
  };
  if (task.output !== undefined) shape.outputSchema = task.output.jsonSchema;
  if (task.iterator !== undefined)
    shape.iterator = task.iterator.parallel ? 'parallel' : 'sequential';
  if (task.routes !== undefined)
    shape.routes = task.routes.map((route) => ({ key: route.key, kind: route.target.kind }));
  return shape;
}
