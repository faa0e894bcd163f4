/**
 * A schedule's `inputs = { ... }` checked against its mission's inputs at load, as `--input`
 * flags are checked: unknown names, text converted by the input's type, required inputs given,
 * then the whole validated. A schedule that could never start its mission fails `verify`.
 */
import type { Attribute, Span } from './ast.ts';
import { errorAt, type DecodeContext } from './context.ts';
import type { ConfigSchema } from './config-types.ts';
import { inputEntryValue } from './input-entry.ts';
import { didYouMean } from '../base/suggest.ts';
import { FILE_MARKER, formatProblem, validate } from '../schema/index.ts';
import { setOwn } from '../base/own-property.ts';

/** Reads and checks `inputs` of a schedule; undefined (errors reported) when they do not fit. */
export function readScheduleInputs(
  attribute: Attribute | undefined,
  schema: ConfigSchema | undefined,
  context: DecodeContext,
  where: { mission: string; header: Span },
): Record<string, unknown> | undefined {
  const { mission, header } = where;
  const values: Record<string, unknown> = {};
  let ok = true;
  const properties = (schema?.jsonSchema.properties ?? {}) as Record<
    string,
    Record<string, unknown>
  >;
  const names = schema?.fields.map((field) => field.name) ?? [];
  if (attribute !== undefined) {
    if (attribute.value.kind !== 'object') {
      return errorAt(context, attribute.value.span, 'inputs must be a map: { NAME = value }');
    }
    for (const entry of attribute.value.entries) {
      const property = properties[entry.key];
      if (property === undefined || !names.includes(entry.key)) {
        errorAt(
          context,
          entry.keySpan,
          `mission "${mission}" has no input "${entry.key}"${didYouMean(entry.key, names)}`,
        );
        ok = false;
        continue;
      }
      if (property[FILE_MARKER] === true) {
        errorAt(
          context,
          entry.keySpan,
          `input "${entry.key}" is a file input, which a schedule cannot give`,
          'give it a default, or start the mission with --input or through the API',
        );
        ok = false;
        continue;
      }
      const value = inputEntryValue(entry.key, entry.keySpan, entry.value, property, context, true);
      if (value === undefined) ok = false;
      else setOwn(values, entry.key, value.value);
    }
  }
  if (!ok) return undefined;
  const at = attribute?.nameSpan ?? header;
  for (const field of schema?.fields ?? []) {
    if (field.required && !(field.name in values)) {
      errorAt(
        context,
        at,
        `schedule does not give required input "${field.name}" of mission "${mission}"`,
        `add it to the schedule's inputs: inputs = { ${field.name} = ... }`,
      );
      ok = false;
    }
  }
  if (!ok || schema === undefined) return ok ? values : undefined;
  const checked = validate(schema.jsonSchema, values);
  for (const problem of checked.problems) {
    errorAt(context, at, `schedule input ${formatProblem(problem)}`);
  }
  return checked.problems.length === 0 ? values : undefined;
}
