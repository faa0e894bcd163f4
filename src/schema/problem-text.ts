/**
 * The one wording of validation problems: what a model reads back for bad tool arguments, an
 * output, `mission_inputs` or dataset items, and what a user reads for bad `--input` values.
 * ajv's own messages are kept where they are plain; where they are not (bounds, enums, file
 * inputs) the message says what would be accepted.
 */
import type { ErrorObject } from 'ajv/dist/2020.js';
import { FILE_MARKER } from './json-schema.ts';

/**
 * One validation failure: a JSON pointer into the value (`/` for the root) and what is wrong;
 * `item` is the index of the list item the value was, when a list was checked item by item.
 */
export interface Problem {
  path: string;
  message: string;
  item?: number;
}

/** The message a file input gets for any malformed shape, instead of ajv's oneOf noise. */
export const FILE_SHAPE_MESSAGE = 'must be a file: { path } or { base64, filename }';

/** `/total: must be number`, or `item 3: /total: must be number` for a list item. */
export function formatProblem(problem: Problem): string {
  const text = `${problem.path}: ${problem.message}`;
  return problem.item === undefined ? text : `item ${problem.item}: ${text}`;
}

/** One ajv error of a validation against `schema` as a Problem in sortie's wording. */
export function problemOf(schema: Record<string, unknown>, error: ErrorObject): Problem {
  const path = error.instancePath === '' ? '/' : error.instancePath;
  if (isFileShapeError(schema, error)) return { path, message: FILE_SHAPE_MESSAGE };
  return { path, message: messageOf(error) };
}

/** Bounds in plain words (`must have at most 10 items`), not ajv's `must NOT have more than`. */
const BOUNDS: Record<string, [string, string, string]> = {
  maxItems: ['at most', 'item', 'items'],
  minItems: ['at least', 'item', 'items'],
  maxLength: ['at most', 'character', 'characters'],
  minLength: ['at least', 'character', 'characters'],
  maxProperties: ['at most', 'property', 'properties'],
  minProperties: ['at least', 'property', 'properties'],
};

function messageOf(error: ErrorObject): string {
  const message = error.message ?? `must pass "${error.keyword}"`;
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'enum' && Array.isArray(params.allowedValues)) {
    return `${message}: ${params.allowedValues.map(String).join(', ')}`;
  }
  if (error.keyword === 'const') return `must be ${JSON.stringify(params.allowedValue)}`;
  const bound = BOUNDS[error.keyword];
  if (bound !== undefined && typeof params.limit === 'number') {
    const [word, one, many] = bound;
    return `must have ${word} ${params.limit} ${params.limit === 1 ? one : many}`;
  }
  if (error.keyword === 'additionalProperties') {
    return `must NOT have additional property '${String(params.additionalProperty)}'`;
  }
  return message;
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
