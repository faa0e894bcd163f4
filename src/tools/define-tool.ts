import type { ToolDefinition } from '../models/model-types.ts';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { ajv } from '../schema/ajv.ts';

/** What `defineTool` needs: the model-facing name, description and JSON Schema 2020-12. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** A tool as offered to models. Kept as a function so every tool goes through one door. */
export function defineTool(spec: ToolSpec): ToolDefinition {
  return { name: spec.name, description: spec.description, parameters: spec.parameters };
}

/** Parsed arguments, or every problem found as `path: message`. */
export type ParsedArguments =
  { ok: true; args: Record<string, unknown> } | { ok: false; problems: string[] };

/**
 * Parses a tool call's raw JSON arguments and validates them against the tool's schema
 * (defaults applied). An empty string counts as `{}`: providers send it for tools without
 * parameters.
 */
export function parseToolArguments(tool: ToolDefinition, rawJson: string): ParsedArguments {
  let value: unknown;
  try {
    value = rawJson.trim() === '' ? {} : JSON.parse(rawJson);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, problems: [`/: arguments are not valid JSON: ${reason}`] };
  }
  const problems = schemaProblems(tool.parameters, value);
  if (problems.length > 0) return { ok: false, problems };
  // The schema's root is always an object schema, so a valid value is an object.
  return { ok: true, args: value as Record<string, unknown> };
}

/**
 * Compiled validators keyed by the schema's JSON text. ajv caches by object identity and
 * keeps every schema it compiled; tool schemas are rebuilt per commander (10,000 parallel
 * items build 10,000 equal objects), so we key by text to compile each distinct schema once.
 */
const validators = new Map<string, ValidateFunction>();

function validatorFor(schema: Record<string, unknown>): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = validators.get(key);
  if (validate === undefined) {
    validate = ajv.compile(schema);
    validators.set(key, validate);
  }
  return validate;
}

/**
 * Validates `value` against `schema` with the shared ajv instance (defaults are applied to
 * `value` in place). Returns every problem as `path: message`, root `/`; none when valid.
 */
export function schemaProblems(schema: Record<string, unknown>, value: unknown): string[] {
  const validate = validatorFor(schema);
  if (validate(value)) return [];
  return (validate.errors ?? []).map(formatProblem);
}

/** One ajv error as `path: message`, with the detail models need to fix the call. */
export function formatProblem(error: ErrorObject): string {
  const path = error.instancePath === '' ? '/' : error.instancePath;
  return `${path}: ${problemMessage(error)}`;
}

const BOUNDS: Record<string, [string, string]> = {
  maxItems: ['at most', 'items'],
  minItems: ['at least', 'items'],
  maxLength: ['at most', 'characters'],
  minLength: ['at least', 'characters'],
  maxProperties: ['at most', 'properties'],
  minProperties: ['at least', 'properties'],
};

function problemMessage(error: ErrorObject): string {
  const message = error.message ?? 'is invalid';
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'enum' && Array.isArray(params.allowedValues)) {
    return `${message}: ${params.allowedValues.map((value) => String(value)).join(', ')}`;
  }
  const limit = typeof params.limit === 'number' ? params.limit : undefined;
  // Plain-language bounds (tools.md writes `must have at most 10 items`), not ajv's `must NOT have more than`.
  if (limit !== undefined && error.keyword in BOUNDS) {
    const [word, unit] = BOUNDS[error.keyword] as [string, string];
    return `must have ${word} ${limit} ${limit === 1 ? unit.slice(0, -1) : unit}`;
  }
  if (error.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
    return `must NOT have additional property '${params.additionalProperty}'`;
  }
  return message;
}

// Tools import their result builders from either module; tool-result.ts holds them.
export { toolResult } from './tool-result.ts';
