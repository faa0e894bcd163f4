import { ConfigError, type Diagnostic } from '../base/errors.ts';
import type { Expr, Span, TemplateExpr } from './ast.ts';
import { traversalsIn, firstStepName } from './expression-references.ts';
import { unsetVariable } from './resolve-model.ts';
import { agentsOfMission, chainedMissions } from './mission-lookup.ts';
import { mcpDeferredValues, mcpSecretValues, mcpServersOfMission } from './mcp-values.ts';
import type { Config, DeferredString, ModelRef } from './config-types.ts';

/** What `requireVariables` checks beyond tools and objectives. */
export interface RequirementOptions {
  /**
   * Require the models' `api_key` and `base_url` variables (default true). False when the
   * run's model clients are replaced (a cassette replay), which never read them.
   */
  credentials?: boolean;
}

/**
 * Checks that every variable running `missionName` needs has a value: credentials of the
 * models its commanders and agents use (unless `credentials` is false), variables of the
 * custom tools and MCP servers its agents call (directly or through skills), values of its
 * protected inputs, and variables in objectives — also of missions its routes chain to. Throws one ConfigError listing each unset variable once, at its first use.
 */
export function requireVariables(
  config: Config,
  missionName: string,
  options: RequirementOptions = {},
): void {
  const credentials = options.credentials ?? true;
  const diagnostics: Diagnostic[] = [];
  const reported = new Set<string>();
  const add = (name: string, span: Span, path: string[]): void => {
    if (reported.has(name) || config.variables.get(name)?.value !== undefined) return;
    reported.add(name);
    diagnostics.push(unsetVariable(name, span, path));
  };
  const addDeferred = (value: DeferredString | undefined, path: string[]): void => {
    for (const segment of value?.segments ?? [])
      if ('variable' in segment) add(segment.variable, segment.span, path);
  };
  const checkModel = (ref: ModelRef): void => {
    const block = config.models.get(ref.config);
    if (!credentials || block === undefined) return;
    addDeferred(block.apiKey, [`model "${block.name}"`]);
    addDeferred(block.baseUrl, [`model "${block.name}"`]);
  };
  const checkExpr = (expr: Expr | TemplateExpr, path: string[]): void => {
    for (const traversal of traversalsIn(expr)) {
      const name = firstStepName(traversal);
      if (traversal.root === 'vars' && name !== undefined) add(name, traversal.span, path);
    }
  };
  for (const mission of chainedMissions(config, missionName)) {
    checkModel(mission.commander.model);
    for (const agent of agentsOfMission(config, mission)) {
      checkModel(agent.model);
      for (const tool of [...agent.tools, ...agent.skills.flatMap((skill) => skill.tools)]) {
        const custom = tool.kind === 'custom' ? config.tools.get(tool.name) : undefined;
        if (custom === undefined) continue;
        const path = [`tool "${custom.name}"`];
        const fields = [
          custom.url,
          ...custom.headers.map((h) => h.value),
          ...custom.query.map((q) => q.value),
        ];
        for (const expr of custom.body ? [...fields, custom.body] : fields) checkExpr(expr, path);
      }
    }
    for (const name of mcpServersOfMission(config, mission)) {
      const server = config.mcpServers.get(name);
      for (const value of server ? mcpDeferredValues(server) : [])
        addDeferred(value, [`mcp "${name}"`]);
    }
    for (const field of mission.inputs?.fields ?? [])
      addDeferred(field.value, [`mission "${mission.name}"`, `input "${field.name}"`]);
    for (const task of mission.tasks.values())
      checkExpr(task.objective, [`mission "${mission.name}"`, `task "${task.name}"`]);
  }
  if (diagnostics.length > 0) throw new ConfigError(diagnostics);
}

/** Values of every set variable, for evaluating `vars.*` at run time. */
export function variableValues(config: Config): Record<string, string | number | boolean> {
  const values: Record<string, string | number | boolean> = {};
  for (const variable of config.variables.values())
    if (variable.value !== undefined) values[variable.name] = variable.value;
  return values;
}

/**
 * Every value that must never be printed: secret variables, literal API keys, and MCP server
 * values marked secret (credential-like `env`/`headers` entries, OAuth client secrets), and
 * missions' webhook secrets and the MCP host's secret.
 */
export function secretValues(config: Config): string[] {
  const secrets = [...config.variables.values()].flatMap((variable) =>
    variable.secret && variable.value !== undefined ? [String(variable.value)] : [],
  );
  for (const model of config.models.values()) {
    for (const segment of model.apiKey?.segments ?? [])
      if ('text' in segment && segment.text) secrets.push(segment.text);
  }
  secrets.push(...mcpSecretValues(config));
  for (const mission of config.missions.values())
    if (mission.trigger?.secret !== undefined) secrets.push(mission.trigger.secret);
  if (config.mcpHost?.secret !== undefined) secrets.push(config.mcpHost.secret);
  return secrets;
}
