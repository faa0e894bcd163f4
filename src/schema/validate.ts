/**
 * The one validation path: tool arguments, task outputs, mission inputs and dataset items are
 * all checked here, against one ajv instance that never modifies what it checks, and their
 * problems are worded by `problem-text.ts`.
 */
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { ajv } from './ajv.ts';
import { applyDefaults, fillDefaults } from './defaults.ts';
import { problemOf, type Problem } from './problem-text.ts';
import { certainlyValid } from './quick-check.ts';

/** How to validate. */
export interface ValidateOptions {
  /**
   * Fill every missing property that has a `default` first (on a copy) and validate the
   * filled value: what tool arguments, outputs, inputs and dataset items get.
   */
  applyDefaults?: boolean;
  /**
   * With `applyDefaults`: the value is the caller's own (tool arguments just parsed from
   * JSON), so the defaults go into it without copying it first.
   */
  owned?: boolean;
}

/** What validation found: the value checked (a filled copy when defaults were asked) and its problems. */
export interface Validation {
  value: unknown;
  problems: Problem[];
}

const validators = new WeakMap<object, ValidateFunction>();
/**
 * Validators by the schema's JSON text: tool schemas are rebuilt per commander (an equal object
 * per parallel item) and the default checks build a fresh schema per field; ajv caches by
 * identity and keeps every schema it compiled, so each distinct text is compiled once.
 */
const validatorsByText = new Map<string, ValidateFunction>();

/** The compiled validator for a schema, compiled once per distinct schema. */
function validatorFor(schema: Record<string, unknown>): ValidateFunction {
  let validator = validators.get(schema);
  if (validator !== undefined) return validator;
  const text = JSON.stringify(schema);
  validator = validatorsByText.get(text);
  if (validator === undefined) {
    validator = ajv().compile(schema);
    validatorsByText.set(text, validator);
  }
  validators.set(schema, validator);
  return validator;
}

/**
 * Validates `value` against `schema` and lists every problem once, in ajv's order
 * (declaration order of properties). The caller's value is never modified: with
 * `applyDefaults` the defaults go into a copy, returned as `value`.
 */
export function validate(
  schema: Record<string, unknown>,
  value: unknown,
  options: ValidateOptions = {},
): Validation {
  const checked =
    options.applyDefaults !== true
      ? value
      : options.owned === true
        ? fillDefaults(schema, value)
        : applyDefaults(schema, value);
  if (certainlyValid(schema, checked)) return { value: checked, problems: [] };
  const validator = validatorFor(schema);
  if (validator(checked)) return { value: checked, problems: [] };
  const problems: Problem[] = [];
  const seen = new Set<string>();
  for (const error of validator.errors ?? []) {
    const problem = problemOf(schema, error);
    const key = `${problem.path}\u0000${problem.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push(problem);
  }
  return { value: checked, problems };
}

/** What validating a list item by item found. */
export interface ItemsValidation {
  /** Every item as checked (filled copies when defaults were asked). */
  values: unknown[];
  /** Problems naming their item, at most `limit` of them. */
  problems: Problem[];
  /** How many items have at least one problem. */
  invalidItems: number;
}

/** Validates each item of a list against the item schema: dataset items, bound or written. */
export function validateItems(
  schema: Record<string, unknown>,
  items: readonly unknown[],
  options: ValidateOptions & { limit?: number } = {},
): ItemsValidation {
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  const values: unknown[] = [];
  const problems: Problem[] = [];
  let invalidItems = 0;
  items.forEach((item, index) => {
    const checked = validate(schema, item, options);
    values.push(checked.value);
    if (checked.problems.length > 0) invalidItems++;
    for (const problem of checked.problems) {
      if (problems.length < limit) problems.push({ ...problem, item: index });
    }
  });
  return { values, problems, invalidItems };
}
