import { analyzeProject, ProjectConfigError } from '../config/load-project.ts';
import { requireVariables } from '../config/requirements.ts';
import type { Config, DeferredString } from '../config/types.ts';
import { ConfigError } from '../errors.ts';

/** A project loaded for a run. */
export interface LoadedForRun {
  config: Config;
  /** Throws the configuration error listing every variable the mission needs but lacks. */
  checkVariables: (mission: string) => void;
  /** A replayed run: unset `api_key` / `base_url` variables get stand-ins (never used). */
  withoutKeys: () => void;
}

/** The value an unset API-key variable takes in a replayed run (no client ever reads it). */
export const REPLAY_KEY = 'replayed-run-needs-no-key';
/** The value an unset base-URL variable takes in a replayed run (`.invalid` never resolves). */
export const REPLAY_BASE_URL = 'http://replayed-run.invalid';

/**
 * Loads the project for a run, keeping its sources so that every configuration problem —
 * including a variable the mission needs but nobody set — prints with its source excerpt.
 */
export async function loadForRun(
  directory: string,
  vars: Record<string, string>,
  env: Record<string, string | undefined>,
): Promise<LoadedForRun> {
  const analysis = await analyzeProject(directory, { vars, env });
  const fail = (diagnostics: ConfigError['diagnostics']): never => {
    throw new ProjectConfigError(diagnostics, analysis.root, analysis.sources);
  };
  if (analysis.diagnostics.some((diagnostic) => diagnostic.severity === 'error')) {
    fail(analysis.diagnostics);
  }
  return {
    config: analysis.config,
    withoutKeys: () => fillUnsetApiKeys(analysis.config),
    checkVariables(mission) {
      try {
        requireVariables(analysis.config, mission);
      } catch (error) {
        if (error instanceof ConfigError) fail(error.diagnostics);
        throw error;
      }
    },
  };
}

/**
 * A cassette answers every model request, so no key and no server are needed; but resolving a
 * model still reads its `api_key` and `base_url` variables. Stand-ins keep replays key-free.
 */
function fillUnsetApiKeys(config: Config): void {
  for (const block of config.models.values()) {
    const fill = (segments: DeferredString['segments'] | undefined, value: string): void => {
      for (const segment of segments ?? []) {
        if (!('variable' in segment)) continue;
        const variable = config.variables.get(segment.variable);
        if (variable !== undefined && variable.value === undefined) variable.value = value;
      }
    };
    fill(block.apiKey?.segments, REPLAY_KEY);
    fill(block.baseUrl?.segments, REPLAY_BASE_URL);
  }
}
