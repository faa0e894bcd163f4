/**
 * What `startRun` checks before anything runs: the mission exists, its inputs are complete and
 * valid (defaults applied), and the variables it needs are set. Each failure is a UsageError.
 */
import { requireVariables } from '../../config/requirements.ts';
import type { Config, MissionConfig } from '../../config/config-types.ts';
import { ConfigError, UsageError } from '../../base/errors.ts';
import { formatProblem, validate } from '../../schema/index.ts';
import type { RunOptions } from '../contracts.ts';

/** The mission, or a UsageError listing the missions there are. */
export function missionOf(options: RunOptions): MissionConfig {
  const mission = options.config.missions.get(options.mission);
  if (mission !== undefined) return mission;
  const known = [...options.config.missions.keys()].join(', ') || 'none';
  throw new UsageError(`mission "${options.mission}" does not exist; missions: ${known}`);
}

/**
 * Inputs with defaults applied (a copy), for a mission started by the CLI, the library or a
 * route; a missing or invalid input is a UsageError naming it.
 */
export function checkedInputs(
  mission: MissionConfig,
  given: Record<string, unknown>,
): Record<string, unknown> {
  const schema = mission.inputs;
  if (schema === undefined) return { ...given };
  const checked = validate(schema.jsonSchema, given, { applyDefaults: true });
  const inputs = checked.value as Record<string, unknown>;
  for (const field of schema.fields) {
    if (!field.required || inputs[field.name] !== undefined) continue;
    const about = field.description === undefined ? '' : ` (${field.description})`;
    throw new UsageError(
      `mission "${mission.name}" needs input "${field.name}"${about}`,
      `pass it with --input ${field.name}=VALUE`,
    );
  }
  if (checked.problems.length > 0) {
    const problems = checked.problems.map(formatProblem).join('; ');
    throw new UsageError(`inputs of mission "${mission.name}" are invalid: ${problems}`);
  }
  return inputs;
}

/**
 * Missions whose variables were found set, per loaded configuration (which does not change
 * once loaded): a process running a project again and again walks its expressions once.
 */
const satisfied = new WeakMap<Config, Set<string>>();

/**
 * Unset variables the run needs as a UsageError: those of tools and objectives always, the
 * models' credentials only when the real providers are used (replaced clients never read them).
 */
export function checkVariables(options: RunOptions): void {
  const credentials = options.clients === undefined;
  const key = `${credentials ? 'credentials' : 'clients'} ${options.mission}`;
  if (satisfied.get(options.config)?.has(key) === true) return;
  try {
    requireVariables(options.config, options.mission, { credentials });
    const known = satisfied.get(options.config) ?? new Set<string>();
    known.add(key);
    satisfied.set(options.config, known);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const errors = error.diagnostics.filter((diagnostic) => diagnostic.severity === 'error');
    const messages = errors.map((diagnostic) => diagnostic.message);
    const hints = errors.flatMap((diagnostic) =>
      diagnostic.hint === undefined ? [] : [diagnostic.hint],
    );
    throw new UsageError(messages.join('; '), hints.join('; ') || undefined);
  }
}
