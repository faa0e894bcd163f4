/**
 * A project's configuration as a variant changes it: models, objectives and personalities
 * replaced in copies (the loaded configuration is shared by every variant and never changed).
 * Variable values are not applied here: the project is loaded with them (variant-project.ts).
 */
import type { AgentConfig, Config, MissionConfig } from '../config/config-types.ts';
import type { EvalVariant } from './definition/eval-types.ts';

/** The configuration a variant's runs use. */
export function applyVariant(config: Config, variant: EvalVariant): Config {
  const agent = (original: AgentConfig): AgentConfig => {
    const model = variant.agentModels.get(original.name) ?? variant.agentsModel ?? original.model;
    const personality = variant.personalities.get(original.name) ?? original.personality;
    return { ...original, model, personality };
  };
  const mission = (original: MissionConfig): MissionConfig => ({
    ...original,
    commander: {
      ...original.commander,
      model: variant.commanderModel ?? original.commander.model,
    },
    scopedAgents: mapValues(original.scopedAgents, agent),
    tasks: mapValues(original.tasks, (task) => {
      const objective = variant.objectives.get(task.name);
      return objective === undefined ? task : { ...task, objective };
    }),
  });
  return {
    ...config,
    agents: mapValues(config.agents, agent),
    missions: mapValues(config.missions, mission),
  };
}

function mapValues<K, V>(map: ReadonlyMap<K, V>, change: (value: V) => V): Map<K, V> {
  return new Map([...map].map(([key, value]) => [key, change(value)] as const));
}
