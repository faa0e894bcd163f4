/** The comparisons of `output` and `summary` expectations. */
import { isDeepStrictEqual } from 'node:util';
import type { Comparison } from '../definition/eval-types.ts';
import { seenText, type Score } from './score-types.ts';

/** Compares a value with what is expected of it. */
export function compareValue(value: unknown, comparison: Comparison): Score {
  const seen = seenText(value);
  switch (comparison.kind) {
    case 'equals':
      return { passed: isDeepStrictEqual(value, comparison.value), seen };
    case 'contains': {
      const passed =
        typeof value === 'string'
          ? value.includes(comparison.value)
          : Array.isArray(value) && value.some((item) => isDeepStrictEqual(item, comparison.value));
      return { passed, seen };
    }
    case 'matches':
      return {
        passed: typeof value === 'string' && new RegExp(comparison.pattern, 'u').test(value),
        seen,
      };
    case 'near':
      return {
        passed:
          typeof value === 'number' &&
          Math.abs(value - comparison.value) <= comparison.tolerance + Number.EPSILON,
        seen,
      };
  }
}

/** The value at a dotted path (`result.items.0.name`) of an output; undefined when absent. */
export function fieldOf(value: unknown, path: string | undefined): unknown {
  if (path === undefined) return value;
  let current: unknown = value;
  for (const step of path.split('.')) {
    if (typeof current !== 'object' || current === null) return undefined;
    if (!Object.hasOwn(current, step)) return undefined;
    current = (current as Record<string, unknown>)[step];
  }
  return current;
}
