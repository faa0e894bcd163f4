/**
 * The project a variant's runs use: loaded with the variant's variable values (when it sets
 * any, since variables are read while a project loads), then changed by applyVariant.
 */
import { ProjectConfigError, analyzeProject } from '../config/load-project.ts';
import type { Project } from '../run/project.ts';
import type { EvalVariant } from './definition/eval-types.ts';
import { applyVariant } from './variant-config.ts';

/** How the project was opened: the variables a variant's values are added to. */
export interface ProjectSettings {
  vars?: Record<string, string>;
  env?: Record<string, string | undefined>;
}

/** The variant's project; a project the variant's values break throws ProjectConfigError. */
export async function variantProject(
  project: Project,
  variant: EvalVariant,
  settings: ProjectSettings,
): Promise<Project> {
  let base = project;
  if (Object.keys(variant.vars).length > 0) {
    const analysis = await analyzeProject(project.root, {
      vars: { ...settings.vars, ...variant.vars },
      ...(settings.env !== undefined ? { env: settings.env } : {}),
      functionTools: new Set(project.functionTools.keys()),
    });
    const errors = analysis.diagnostics.some((diagnostic) => diagnostic.severity === 'error');
    if (errors) {
      throw new ProjectConfigError(analysis.diagnostics, analysis.root, analysis.sources);
    }
    base = { ...project, config: analysis.config, diagnostics: analysis.diagnostics };
  }
  return { ...base, config: applyVariant(base.config, variant) };
}
