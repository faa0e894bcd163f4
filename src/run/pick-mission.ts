import type { Config, MissionConfig } from '../config/config-types.ts';
import { UsageError } from '../base/errors.ts';
import { didYouMean } from '../base/suggest.ts';

/**
 * The mission to run: the one named, or the project's only mission when none is named.
 * An unknown name or an omitted one in a project of several is a usage error listing them.
 */
export function pickMission(config: Config, name: string | undefined): MissionConfig {
  const names = [...config.missions.keys()];
  if (name === undefined) {
    const [only] = config.missions.values();
    if (names.length === 1 && only !== undefined) return only;
    if (names.length === 0) throw new UsageError('the project has no mission to run');
    throw new UsageError(
      `the project has ${names.length} missions; name the one to run: ${names.join(', ')}`,
      `sortie run DIR MISSION, e.g. sortie run DIR ${names[0]}`,
    );
  }
  const mission = config.missions.get(name);
  if (mission !== undefined) return mission;
  throw new UsageError(
    `unknown mission "${name}"${didYouMean(name, names)}`,
    `the project's missions: ${names.join(', ')}`,
  );
}

/** `depends_on` of every task, keyed `mission/task` (what the line log prints on start). */
export function taskDependencies(config: Config): Map<string, readonly string[]> {
  const dependencies = new Map<string, readonly string[]>();
  for (const mission of config.missions.values()) {
    for (const task of mission.tasks.values()) {
      dependencies.set(`${mission.name}/${task.name}`, task.dependsOn);
    }
  }
  return dependencies;
}
