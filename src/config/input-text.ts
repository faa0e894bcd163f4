/**
 * A mission input given as text (`--input NAME=VALUE`, a schedule's string value, a webhook's
 * string field) converted by the input's JSON Schema type, as the reference runtime converts
 * CLI and webhook strings. File inputs have their own forms and are not handled here.
 */

/** The converted value, or why the text does not fit the input's type. */
export type ConvertedInput = { value: unknown } | { problem: string };

/** Converts `text` to the type of `property` (one input's JSON Schema). */
export function convertInputText(text: string, property: Record<string, unknown>): ConvertedInput {
  const type = property.type;
  if (type === 'string') return { value: text };
  if (type === 'number' || type === 'integer') {
    const number = text.trim() === '' ? Number.NaN : Number(text);
    if (!Number.isFinite(number))
      return { problem: `expected ${type === 'integer' ? 'a whole number' : 'a number'}` };
    if (type === 'integer' && !Number.isInteger(number))
      return { problem: 'expected a whole number' };
    return { value: number };
  }
  if (type === 'boolean') {
    const lowered = text.toLowerCase();
    if (['true', '1', 'yes'].includes(lowered)) return { value: true };
    if (['false', '0', 'no'].includes(lowered)) return { value: false };
    return { problem: 'expected true/false, 1/0 or yes/no' };
  }
  if (type === 'array' || type === 'object') {
    try {
      return { value: JSON.parse(text) as unknown };
    } catch {
      return {
        problem: `expected JSON (${type === 'array' ? 'a list like ["a","b"]' : 'an object like {"k":"v"}'})`,
      };
    }
  }
  // `any` and `any_primitive`: JSON when it parses (numbers, booleans, lists), else the text.
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return { value: text };
  }
}
