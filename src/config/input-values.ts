import type { Attribute, Block } from './ast.ts';
import { within, type DecodeContext } from './context.ts';
import { readDeferredString } from './deferred-strings.ts';
import { resolveDeferredString } from './resolve-model.ts';
import type { Config, ConfigSchema, DeferredString, MissionConfig } from './config-types.ts';

/** `value` attributes of mission `input` blocks, by input name. */
export type InputValues = Map<string, { value: DeferredString; attribute: Attribute }>;

/**
 * Takes `value` out of mission `input "NAME"` blocks (the schema compiler does not know it):
 * the blocks without it, and each value read as a string or `vars.*` kept until the run.
 */
export function takeInputValues(
  blocks: readonly Block[],
  context: DecodeContext,
): { blocks: Block[]; values: InputValues } {
  const values: InputValues = new Map();
  const stripped = blocks.map((block) => {
    const attribute = block.body.attributes.find((candidate) => candidate.name === 'value');
    const [name] = block.labels;
    if (attribute === undefined) return block;
    const inner = name === undefined ? context : within(context, `input "${name}"`);
    const value = readDeferredString(attribute.value, 'value', inner);
    if (value !== undefined && name !== undefined) values.set(name, { value, attribute });
    const attributes = block.body.attributes.filter((candidate) => candidate !== attribute);
    return { ...block, body: { ...block.body, attributes } };
  });
  return { blocks: stripped, values };
}

/**
 * Gives protected inputs their configured value (`input { protected = true, value = vars.x }`,
 * the reference runtime's way of feeding one): such an input is no longer required from the
 * person starting the run. A value on an input that is not protected is ignored with a warning,
 * as the reference runtime ignores it.
 */
export function applyInputValues(
  schema: ConfigSchema,
  values: InputValues,
  context: DecodeContext,
): void {
  for (const field of schema.fields) {
    const configured = values.get(field.name);
    if (configured === undefined) continue;
    if (!field.protected) {
      context.sink.warning(
        configured.attribute.nameSpan,
        `value is ignored on input "${field.name}": only a protected input takes its value from the configuration`,
        [...context.path, `input "${field.name}"`],
        'use default for the value of an input that is not protected',
      );
      continue;
    }
    if (field.type !== 'string') {
      // The configured value is text (a variable's value); a number or list would only fail
      // when the run checks its inputs.
      context.sink.error(
        configured.attribute.nameSpan,
        `value needs a string input: input "${field.name}" is ${field.type}`,
        [...context.path, `input "${field.name}"`],
        'a protected input is a secret text; make its type "string"',
      );
      continue;
    }
    field.value = configured.value;
    field.required = false;
    const required = schema.jsonSchema.required;
    if (Array.isArray(required)) {
      schema.jsonSchema.required = required.filter((name) => name !== field.name);
    }
  }
}

/**
 * The values protected inputs of a mission take from the configuration, variables resolved.
 * The run uses them for inputs it is not given. Throws ConfigError for an unset variable
 * (`requireVariables` reports those before the run starts).
 */
export function configuredInputValues(
  config: Config,
  mission: MissionConfig,
): Record<string, string> {
  const values: Record<string, string> = {};
  for (const field of mission.inputs?.fields ?? []) {
    if (field.value === undefined) continue;
    const path = [`mission "${mission.name}"`, `input "${field.name}"`];
    values[field.name] = resolveDeferredString(config, field.value, path);
  }
  return values;
}
