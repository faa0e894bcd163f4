import type { VariableSource } from './config-types.ts';

/** Where to look for a variable's value, and what was found. */
export interface VariableSources {
  /** `--var NAME=VALUE` pairs. */
  vars?: Record<string, string>;
  env?: Record<string, string | undefined>;
}

/** The environment variable read second: `SORTIE_VAR_` + the name as written. */
export function prefixedEnvName(name: string): string {
  return `SORTIE_VAR_${name}`;
}

/** The environment variable read third: the name upper-cased (`openai_api_key` → `OPENAI_API_KEY`). */
export function plainEnvName(name: string): string {
  return name.toUpperCase();
}

/**
 * A variable's value, first found: `--var`, `SORTIE_VAR_name` (also accepted upper-cased),
 * `NAME`, then the default. Empty environment values count as unset (shells export them by accident).
 */
export function findVariableValue(
  name: string,
  defaultValue: string | number | boolean | undefined,
  sources: VariableSources,
): { value?: string | number | boolean; source: VariableSource } {
  const fromCli = sources.vars?.[name];
  if (fromCli !== undefined) return { value: fromCli, source: 'cli' };
  const env = sources.env ?? {};
  const prefixed =
    nonEmpty(env[prefixedEnvName(name)]) ?? nonEmpty(env[prefixedEnvName(name).toUpperCase()]);
  if (prefixed !== undefined) return { value: prefixed, source: 'env_prefixed' };
  const plain = nonEmpty(env[plainEnvName(name)]);
  if (plain !== undefined) return { value: plain, source: 'env' };
  if (defaultValue !== undefined) return { value: defaultValue, source: 'default' };
  return { source: 'unset' };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

/** The three ways to give a variable a value, for messages about unset variables. */
export function missingVariableHint(name: string): string {
  return `set it with --var ${name}=VALUE, the environment variable ${prefixedEnvName(name)}, or ${plainEnvName(name)}`;
}
