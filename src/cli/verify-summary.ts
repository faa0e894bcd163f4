import type { Config, ModelRef } from '../config/config-types.ts';

/** `1 error`, `2 warnings`. */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** `ok: 2 missions, 5 tasks, 3 agents, 2 models used (models.a.x, models.b.y)` */
export function summarize(config: Config): string {
  const missions = [...config.missions.values()];
  const tasks = missions.reduce((count, mission) => count + mission.tasks.size, 0);
  const agents = [
    ...config.agents.values(),
    ...missions.flatMap((mission) => [...mission.scopedAgents.values()]),
  ];
  const used = new Set<string>();
  const add = (ref: ModelRef): void => {
    used.add(`models.${ref.config}.${ref.key}`);
  };
  for (const mission of missions) add(mission.commander.model);
  for (const agent of agents) add(agent.model);
  const models = [...used];
  const modelList = models.length > 0 ? ` (${models.join(', ')})` : '';
  return `ok: ${plural(missions.length, 'mission')}, ${plural(tasks, 'task')}, ${plural(agents.length, 'agent')}, ${plural(models.length, 'model')} used${modelList}`;
}
