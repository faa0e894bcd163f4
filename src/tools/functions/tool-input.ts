/**
 * The input schema of a TypeScript function tool: a JSON Schema object, or a schema library's
 * object that converts itself to one (Standard JSON Schema: zod 4.2+, ArkType, …; or a
 * `toJSONSchema()` method, as zod 4 schemas have). sortie never imports a schema library:
 * it only calls what the schema object offers.
 */
import { UsageError } from '../../base/errors.ts';
import type { Problem } from '../../schema/index.ts';

/** A JSON Schema (2020-12) document whose root describes an object. */
export type JsonSchemaObject = Record<string, unknown>;

/** One issue of a Standard Schema validation (https://standardschema.dev). */
export interface StandardIssue {
  readonly message: string;
  readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }>;
}

/** The result of a Standard Schema validation. */
export type StandardResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: readonly StandardIssue[] };

/**
 * A schema implementing Standard Schema v1, optionally with the Standard JSON Schema
 * converter (`jsonSchema.input`) — what zod 4.2+ schemas are.
 */
export interface StandardSchemaLike<Output = unknown> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
    readonly jsonSchema?: { readonly input: (options: { target: string }) => JsonSchemaObject };
    readonly types?: { readonly input: unknown; readonly output: Output } | undefined;
  };
}

/** What a tool's `input` may be. */
export type ToolInputSchema = JsonSchemaObject | StandardSchemaLike;

/** The arguments a tool's function receives for a given input schema. */
export type ToolInputOf<Schema> = Schema extends {
  readonly '~standard': { readonly types?: { readonly output: infer Output } | undefined };
}
  ? Output
  : Record<string, unknown>;

/** The input schema's Standard Schema side, when it has one. */
export function standardSchemaOf(input: ToolInputSchema): StandardSchemaLike | undefined {
  const standard = (input as Partial<StandardSchemaLike>)['~standard'];
  return typeof standard?.validate === 'function' ? (input as StandardSchemaLike) : undefined;
}

/**
 * The JSON Schema offered to models and checked by sortie's validator. A schema library's
 * schema is converted with its own converter; `$schema` is dropped (providers reject unknown
 * top-level keywords). The root must describe an object: models send arguments as one.
 */
export function jsonSchemaOf(tool: string, input: ToolInputSchema): JsonSchemaObject {
  const standard = standardSchemaOf(input);
  let schema: unknown = input;
  if (standard !== undefined) schema = convert(tool, standard);
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new UsageError(`tool "${tool}": its input schema is not a JSON Schema object`);
  }
  const { $schema: _dialect, ...rest } = schema as JsonSchemaObject;
  if (rest.type !== 'object') {
    throw new UsageError(
      `tool "${tool}": its input schema must describe an object (type "object"), got ${JSON.stringify(rest.type ?? null)}`,
      'models send a tool its arguments as one object: wrap the value in an object with one property',
    );
  }
  return rest;
}

function convert(tool: string, standard: StandardSchemaLike): unknown {
  const converter = standard['~standard'].jsonSchema;
  if (typeof converter?.input === 'function') return converter.input({ target: 'draft-2020-12' });
  // zod 4 before the Standard JSON Schema converter: the schema's own method.
  const method = (standard as { toJSONSchema?: (options?: object) => unknown }).toJSONSchema;
  if (typeof method === 'function') {
    return method.call(standard, { target: 'draft-2020-12', io: 'input' });
  }
  throw new UsageError(
    `tool "${tool}": its ${standard['~standard'].vendor} input schema cannot be converted to JSON Schema`,
    'give a JSON Schema object instead, e.g. z.toJSONSchema(schema) for zod',
  );
}

/** Standard Schema issues as validation problems (`/path: message`). */
export function problemsOfIssues(issues: readonly StandardIssue[]): Problem[] {
  return issues.map((issue) => {
    const segments = (issue.path ?? []).map((segment) =>
      String(typeof segment === 'object' ? segment.key : segment)
        .replaceAll('~', '~0')
        .replaceAll('/', '~1'),
    );
    return { path: segments.length === 0 ? '/' : `/${segments.join('/')}`, message: issue.message };
  });
}
