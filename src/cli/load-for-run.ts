import { analyzeProject, ProjectConfigError } from '../config/load-project.ts';
import { requireVariables, type RequirementOptions } from '../config/requirements.ts';
import type { Config } from '../config/config-types.ts';
import { ConfigError } from '../base/errors.ts';
import { checkDeclaredVariables } from './var-flags.ts';

/** A project loaded for a run. */
export interface LoadedForRun {
  config: Config;
  /**
   * Throws the configuration error listing every variable the mission needs but lacks
   * (a replayed run passes `credentials: false`: it needs no key and no server); the mission
   * is looked up in `config` when given (a chat's config, which holds its mission).
   */
  checkVariables: (mission: string, options?: RequirementOptions, config?: Config) => void;
}

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
  checkDeclaredVariables(vars, analysis.config.variables.keys());
  return {
    config: analysis.config,
    checkVariables(mission, options, config = analysis.config) {
      try {
        requireVariables(config, mission, options);
      } catch (error) {
        if (error instanceof ConfigError) fail(error.diagnostics);
        throw error;
      }
    },
  };
}
