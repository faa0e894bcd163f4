import type { ToolDefinition } from '../models/model-types.ts';
import { formatProblem, validate } from '../schema/index.ts';
import { reasonOf } from '../base/reason.ts';

/**
 * A tool as offered to models (`parameters` in JSON Schema 2020-12). Kept as a function so
 * every tool goes through one door.
 */
export function defineTool(spec: ToolDefinition): ToolDefinition {
  return { name: spec.name, description: spec.description, parameters: spec.parameters };
}

/**
 * An object schema with these properties and no others, `required` naming those a value must
 * have: the shape of almost every tool's parameters.
 */
export function objectSchema(
  required: string[],
  properties: Record<string, unknown>,
): Record<string, unknown> {
  // Keys in the order tools always wrote them: request bodies (and cassettes) stay the same.
  const schema: Record<string, unknown> = { type: 'object', properties };
  if (required.length > 0) schema.required = required;
  schema.additionalProperties = false;
  return schema;
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
    const reason = reasonOf(error);
    const problem = { path: '/', message: `arguments are not valid JSON: ${reason}` };
    return { ok: false, problems: [formatProblem(problem)] };
  }
  // The parsed value is ours: defaults (compiled once per schema) go into it, uncopied.
  const checked = validate(tool.parameters, value, { applyDefaults: true, owned: true });
  if (checked.problems.length > 0) {
    return { ok: false, problems: checked.problems.map(formatProblem) };
  }
  // The schema's root is always an object schema, so a valid value is an object.
  return { ok: true, args: checked.value as Record<string, unknown> };
}
