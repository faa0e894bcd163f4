/**
 * `case "NAME" { inputs = { … }, pass_rate, expect … }`: the mission's inputs checked as
 * `--input` flags are (names, types, required ones, the schema), a file input given as a path
 * relative to the eval's folder.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Attribute, Block, Expr } from '../../config/ast.ts';
import { blockName, checkBody, headerSpan } from '../../config/body.ts';
import type { DecodeContext } from '../../config/context.ts';
import { inputEntryValue } from '../../config/input-entry.ts';
import { readString } from '../../config/values.ts';
import { didYouMean } from '../../base/suggest.ts';
import { FILE_MARKER, formatProblem, validate } from '../../schema/index.ts';
import { decodeExpectation, readFraction, type ExpectationScope } from './decode-expectation.ts';
import type { EvalCase } from './eval-types.ts';
import { setOwn } from '../../base/own-property.ts';

/** Decodes a case; undefined (errors reported) when its inputs do not fit the mission. */
export function decodeCase(
  block: Block,
  scope: ExpectationScope & { folder: string; passRate: number },
  context: DecodeContext,
): EvalCase | undefined {
  const name = blockName(block, context);
  if (name === undefined) return undefined;
  const inner = { ...context, path: [...context.path, `case "${name}"`] };
  const span = headerSpan(block);
  const body = checkBody(
    block.body,
    { attributes: ['inputs', 'pass_rate'], blocks: ['expect'] },
    inner,
    span,
  );
  const inputs = readCaseInputs(body.attributes.get('inputs'), scope, inner, span);
  const passRateAttribute = body.attributes.get('pass_rate');
  const passRate =
    passRateAttribute === undefined ? scope.passRate : readFraction(passRateAttribute, inner);
  const expectations = body.blocks.flatMap((expect) => decodeExpectation(expect, scope, inner));
  if (inputs === undefined || passRate === undefined) return undefined;
  return { name, inputs, expectations, passRate, span };
}

function readCaseInputs(
  attribute: Attribute | undefined,
  scope: ExpectationScope & { folder: string },
  context: DecodeContext,
  span: EvalCase['span'],
): Record<string, unknown> | undefined {
  const schema = scope.mission.inputs;
  const properties = (schema?.jsonSchema.properties ?? {}) as Record<
    string,
    Record<string, unknown>
  >;
  const names = schema?.fields.map((field) => field.name) ?? [];
  const values: Record<string, unknown> = {};
  let ok = true;
  if (attribute !== undefined && attribute.value.kind !== 'object') {
    context.sink.error(
      attribute.value.span,
      'inputs must be a map: { NAME = value }',
      context.path,
    );
    return undefined;
  }
  const entries = attribute?.value.kind === 'object' ? attribute.value.entries : [];
  for (const entry of entries) {
    const property = properties[entry.key];
    if (property === undefined || !names.includes(entry.key)) {
      const suggestion = didYouMean(entry.key, names);
      context.sink.error(
        entry.keySpan,
        `mission "${scope.mission.name}" has no input "${entry.key}"${suggestion}`,
        context.path,
      );
      ok = false;
      continue;
    }
    const value =
      property[FILE_MARKER] === true
        ? fileValue(entry.key, entry.value, scope.folder, context)
        : inputEntryValue(entry.key, entry.value.span, entry.value, property, context, false);
    if (value === undefined) ok = false;
    else setOwn(values, entry.key, value.value);
  }
  if (!ok) return undefined;
  const at = attribute?.nameSpan ?? span;
  for (const field of schema?.fields ?? []) {
    if (field.required && !(field.name in values) && field.value === undefined) {
      context.sink.error(at, `case does not give required input "${field.name}"`, context.path);
      ok = false;
    }
  }
  if (!ok || schema === undefined) return ok ? values : undefined;
  const checked = validate(schema.jsonSchema, values, { applyDefaults: true });
  for (const problem of checked.problems) {
    context.sink.error(at, `case input ${formatProblem(problem)}`, context.path);
  }
  return checked.problems.length === 0 ? (checked.value as Record<string, unknown>) : undefined;
}

/** A file input: a path relative to the eval's folder that must name a file. */
function fileValue(
  key: string,
  expr: Expr,
  folder: string,
  context: DecodeContext,
): { value: unknown } | undefined {
  const attribute: Attribute = {
    kind: 'attribute',
    name: `inputs.${key}`,
    nameSpan: expr.span,
    value: expr,
    span: expr.span,
  };
  const path = readString(attribute, context);
  if (path === undefined) return undefined;
  const absolute = resolve(folder, path);
  const isFile = (() => {
    try {
      return statSync(absolute).isFile();
    } catch {
      return false;
    }
  })();
  if (isFile) return { value: { path: absolute } };
  context.sink.error(
    expr.span,
    `input "${key}": no file ${path} (a file input is a path relative to the eval's folder)`,
    context.path,
  );
  return undefined;
}
