import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { ajv } from './ajv.ts';
import { FILE_MARKER } from './json-schema.ts';

/** One validation failure: a JSON pointer into the value (`/` for the root) and what is wrong. */
export interface Problem {
  path: string;
  message: string;
}

/** The message a file input gets for any malformed shape, instead of ajv's oneOf noise. */
export const FILE_SHAPE_MESSAGE = 'must be a file: { path } or { base64, filename }';

const validators = new WeakMap<object, ValidateFunction>();
/**
 * Validators by the schema's JSON text: callers such as the default checks build a fresh,
 * structurally identical schema per field, and compiling each would dominate `verify`.
 */
const validatorsByText = new Map<string, ValidateFunction>();

/** The compiled validator for a schema, compiled once per distinct schema. */
function validatorFor(schema: Record<string, unknown>): ValidateFunction {
  let validator = validators.get(schema);
  if (validator !== undefined) return validator;
  const text = JSON.stringify(schema);
  validator = validatorsByText.get(text);
  if (validator === undefined) {
    validator = ajv.compile(schema);
    validatorsByText.set(text, validator);
  }
  validators.set(schema, validator);
  return validator;
}

/**
 * Validates `value` against `schema` and lists every problem, in ajv's order (declaration
 * order of properties). The value is not modified: the shared ajv instance fills defaults in,
 * so it works on a copy.
 */
export function validateValue(schema: Record<string, unknown>, value: unknown): Problem[] {
  const validator = validatorFor(schema);
  if (validator(structuredClone(value))) return [];
  const problems: Problem[] = [];
  const seen = new Set<string>();
  for (const error of validator.errors ?? []) {
    const problem = toProblem(schema, error);
    const key = `${problem.path}\u0000${problem.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push(problem);
  }
  return problems;
}

/** `"/total: must be number"`, the form problems take in messages and tool results. */
export function formatProblem(problem: Problem): string {
  return `${problem.path}: ${problem.message}`;
}

function toProblem(schema: Record<string, unknown>, error: ErrorObject): Problem {
  const path = error.instancePath === '' ? '/' : error.instancePath;
  if (isFileShapeError(schema, error)) return { path, message: FILE_SHAPE_MESSAGE };
  if (error.keyword === 'additionalProperties') {
    const name = String((error.params as { additionalProperty?: unknown }).additionalProperty);
    return { path, message: `must NOT have additional property '${name}'` };
  }
  return { path, message: error.message ?? `must pass "${error.keyword}"` };
}

/**
 * True when the error is about a file input's own shape (its type, its oneOf of the two
 * forms, a stray key): the schema path goes through a file node and the error sits at that
 * node's value rather than below it.
 */
function isFileShapeError(schema: Record<string, unknown>, error: ErrorObject): boolean {
  const segments = error.schemaPath.split('/').slice(1).map(decodeSegment);
  let node: unknown = schema;
  let depth = 0;
  for (let index = 0; index < segments.length; index++) {
    if (isFileNode(node)) return depth === pointerDepth(error.instancePath);
    const segment = segments[index] ?? '';
    // properties/NAME, items and additionalProperties each move one step into the value.
    if (segment === 'properties') {
      node = child(child(node, segment), segments[++index] ?? '');
      depth++;
    } else {
      node = child(node, segment);
      if (segment === 'items' || segment === 'additionalProperties') depth++;
    }
  }
  return isFileNode(node) && depth === pointerDepth(error.instancePath);
}

function child(node: unknown, key: string): unknown {
  return typeof node === 'object' && node !== null
    ? (node as Record<string, unknown>)[key]
    : undefined;
}

function isFileNode(node: unknown): boolean {
  return child(node, FILE_MARKER) === true;
}

function pointerDepth(pointer: string): number {
  return pointer === '' ? 0 : pointer.split('/').length - 1;
}

function decodeSegment(segment: string): string {
  return decodeURIComponent(segment).replaceAll('~1', '/').replaceAll('~0', '~');
}
