/**
 * What every commander of a task shares, computed once when the task starts: ancestors and
 * their context, the system prompt, the tool shape, the model and the agents. Parallel items
 * reuse it, so their system prompts are byte-identical (one cache prefix for all items).
 */
import { evaluateTemplate } from '../../config/evaluate.ts';
import { findAgent } from '../../config/mission-lookup.ts';
import { resolveModel } from '../../config/resolve-model.ts';
import type { AgentConfig, TaskConfig } from '../../config/config-types.ts';
import type { CommanderTask } from '../../machines/commander-context.ts';
import type { ReasoningLevel, ResolvedModel } from '../../models/model-types.ts';
import { actorId } from '../../base/events.ts';
import type { PromptDependency } from '../../runtime/prompts/commander-prompt.ts';
import { commanderSystemPrompt } from '../../runtime/prompts/commander-prompt.ts';
import { taskPromptSpec, taskShape } from '../../runtime/prompts/task-prompt-spec.ts';
import type { CommanderScope } from '../commander/commander-scope.ts';
import { taskResume, type TaskResume } from '../resume/task-resume.ts';
import type { MissionRuntime } from './mission-runtime.ts';
import { ancestorsOf, taskConfig } from './mission-runtime.ts';

/** A started task as its commanders see it. */
export interface PreparedTask {
  runtime: MissionRuntime;
  config: TaskConfig;
  ancestors: readonly string[];
  system: string;
  commanderTask: CommanderTask;
  model: ResolvedModel;
  reasoning?: ReasoningLevel;
  agents: ReadonlyMap<string, AgentConfig>;
  /** What a resumed run's journal says about the task (the empty resume on a fresh run). */
  resume: TaskResume;
}

/** The dependency context of the prompt: each ancestor's summary and output fields. */
function dependencyContext(
  runtime: MissionRuntime,
  ancestors: readonly string[],
): PromptDependency[] {
  return ancestors.map((name) => {
    const dependency: PromptDependency = {
      task: name,
      summary: runtime.services.knowledge.get(name)?.summary ?? '',
    };
    const output = runtime.services.mission.tasks.get(name)?.output;
    if (output !== undefined) {
      dependency.fields = output.fields.map((field) => ({ name: field.name, type: field.type }));
    }
    return dependency;
  });
}

/** Prepares a task about to start. Throws ConfigError when its commander's model cannot resolve. */
export function prepareTask(runtime: MissionRuntime, task: string): PreparedTask {
  const { config, mission } = runtime.services;
  const taskConfigValue = taskConfig(runtime, task);
  const ancestors = ancestorsOf(runtime, task);
  const facts = {
    dependencies: dependencyContext(runtime, ancestors),
    ancestorsUsedAgents: ancestors.some((name) => runtime.commanders.usedAgents(name)),
  };
  const shape = taskShape(config, mission, taskConfigValue, facts);
  const commanderTask: CommanderTask = { ...shape };
  if (taskConfigValue.routes !== undefined) {
    commanderTask.routes = taskConfigValue.routes.map((route) => {
      const inputSchema =
        route.target.kind === 'mission'
          ? config.missions.get(route.target.name)?.inputs?.jsonSchema
          : undefined;
      return {
        key: route.key,
        kind: route.target.kind,
        ...(inputSchema !== undefined ? { inputSchema } : {}),
      };
    });
  }
  const system = commanderSystemPrompt(taskPromptSpec(config, mission, taskConfigValue, facts));
  return assemblePreparedTask(runtime, task, { ancestors, system, commanderTask });
}

/**
 * The prepared task from what only the run process can compute (ancestors, the system prompt
 * and the tool shape, which depend on what earlier tasks did) — a worker of a distributed run
 * gets these in the job and builds the rest from its copy of the project.
 */
export function assemblePreparedTask(
  runtime: MissionRuntime,
  task: string,
  computed: Pick<PreparedTask, 'ancestors' | 'system' | 'commanderTask'>,
): PreparedTask {
  const { config, mission } = runtime.services;
  const taskConfigValue = taskConfig(runtime, task);
  const model = resolveModel(config, mission.commander.model);
  const agents = new Map<string, AgentConfig>();
  for (const name of taskConfigValue.agents) {
    const agent = findAgent(config, mission, name);
    if (agent !== undefined) agents.set(name, agent);
  }
  const prepared: PreparedTask = {
    runtime,
    config: taskConfigValue,
    ...computed,
    model,
    agents,
    resume: taskResume(runtime.restore, task),
  };
  const reasoning = mission.commander.reasoning;
  if (reasoning !== undefined && model.reasoningCapable) prepared.reasoning = reasoning;
  return prepared;
}

/** The objective, interpolated with inputs, variables and (parallel items) the item. */
export function objectiveText(prepared: PreparedTask, item?: { value: unknown }): string {
  const { services, vars } = prepared.runtime;
  return evaluateTemplate(prepared.config.objective, {
    inputs: services.inputs,
    vars,
    ...(item !== undefined ? { item: item.value } : {}),
  });
}

/** A fresh commander scope: new agent sessions, the task's agents and ancestors. */
export function commanderScope(prepared: PreparedTask, index: number | null): CommanderScope {
  return {
    runtime: prepared.runtime,
    task: prepared.config.name,
    index,
    actorId: actorId.commander(prepared.config.name, index ?? undefined),
    agents: prepared.agents,
    sessions: new Map(),
    ancestors: prepared.ancestors,
  };
}
