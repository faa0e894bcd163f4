import type { AgentConfig, Config, MissionConfig } from './config-types.ts';

/** An agent by name as a mission sees it: its own scoped agents first, then the global ones. */
export function findAgent(
  config: Config,
  mission: MissionConfig,
  name: string,
): AgentConfig | undefined {
  return mission.scopedAgents.get(name) ?? config.agents.get(name);
}

/** The agents the mission and its tasks name, once each in first-named order; unknown names left out. */
export function agentsOfMission(config: Config, mission: MissionConfig): AgentConfig[] {
  const names = new Set([
    ...mission.agents,
    ...[...mission.tasks.values()].flatMap((task) => task.agents),
  ]);
  return [...names].flatMap((name) => findAgent(config, mission, name) ?? []);
}

/** The mission and every mission its routes can chain to, in discovery order. */
export function chainedMissions(config: Config, missionName: string): MissionConfig[] {
  const found: MissionConfig[] = [];
  const pending = [missionName];
  while (pending.length > 0) {
    const mission = config.missions.get(pending.shift() as string);
    if (mission === undefined || found.includes(mission)) continue;
    found.push(mission);
    for (const task of mission.tasks.values()) {
      for (const route of task.routes ?? [])
        if (route.target.kind === 'mission') pending.push(route.target.name);
    }
  }
  return found;
}
