/**
 * A server's `elicitation/create` as a question to the person, through the same desk as
 * `builtins.human.ask` (terminal UI, terminal, `--answer`/`--answers`, the library's `human`),
 * so it is journaled like any question. A form of one choice field offers its choices; a
 * form of one other field takes the answer as its value; any other form takes a JSON object
 * of its fields, those left out taking their defaults. A URL request shows the link. No
 * person (headless, `--no-human`, a timeout) declines.
 */
import type {
  ElicitRequest,
  ElicitResult,
  PrimitiveSchemaDefinition,
} from '@modelcontextprotocol/sdk/types.js';
import type { HumanFormField } from '../../base/events.ts';
import type { HumanQuestion } from '../builtins/human-ask.ts';
import { serverLabel } from './mcp-spec.ts';

type ElicitParams = ElicitRequest['params'];
type Field = [name: string, schema: PrimitiveSchemaDefinition];

const DONE = 'done';
const QUESTION_ID = /^(.+)\.elicitation-\d+$/;
const DECLINE = 'decline';
const YES_NO = ['yes', 'no'];

/**
 * The id of the `number`th question (from 1) a server asked during the tool call `callId`: the
 * same in a resumed run that calls the tool again, so the journal's answer can be found.
 */
export function elicitationCallId(callId: string, number: number): string {
  return `${callId}.elicitation-${number}`;
}

/** The tool call a question's id (`elicitationCallId`'s) belongs to; undefined for any other. */
export function elicitingCallOf(questionCallId: string): string | undefined {
  return QUESTION_ID.exec(questionCallId)?.[1];
}

/** The question the person is asked for a request of `server`. */
export function elicitationQuestion(server: string, params: ElicitParams): HumanQuestion {
  const base = {
    question: params.message,
    multiSelect: false,
    timeoutSeconds: null,
    shortSummary: `${serverLabel(server)} asks`,
  };
  if (params.mode === 'url') {
    return {
      ...base,
      choices: [DONE, DECLINE],
      additionalContext: `Open this link, then answer "${DONE}" (or "${DECLINE}"): ${params.url}`,
    };
  }
  const fields = fieldsOf(params);
  const [only] = fields;
  if (fields.length === 1 && only !== undefined) {
    const [name, schema] = only;
    const choices = choicesOf(schema);
    return {
      ...base,
      choices,
      additionalContext: choices.length > 0 ? null : `The answer is ${describe(name, schema)}.`,
    };
  }
  const needed = required(params);
  const lines = fields.map(([name, schema]) => `- ${describe(name, schema, needed)}`);
  return {
    ...base,
    choices: [],
    additionalContext:
      'Answer with a JSON object of these fields; fields left out take their defaults:\n' +
      lines.join('\n'),
    // The terminal UI shows a form of them; other askers read the context above.
    form: fields.map(([name, schema]) => formField(name, schema, needed.has(name))),
  };
}

/** A field as the person's form shows it. */
function formField(
  name: string,
  schema: PrimitiveSchemaDefinition,
  isRequired: boolean,
): HumanFormField {
  const type =
    schema.type === 'boolean' || schema.type === 'number' || schema.type === 'integer'
      ? schema.type
      : 'string';
  return {
    name,
    label: schema.title ?? name,
    description: (schema as { description?: string }).description ?? null,
    type,
    choices: type === 'string' ? choicesOf(schema) : [],
    default: defaultOf(schema) ?? null,
    required: isRequired,
  };
}

/** What the server gets back for the person's answer (a bracketed notice declines). */
export function elicitationResult(params: ElicitParams, answer: string): ElicitResult {
  if (answer.startsWith('[no human')) return { action: 'decline' };
  if (params.mode === 'url') return { action: answer === DONE ? 'accept' : 'decline' };
  const fields = fieldsOf(params);
  const [only] = fields;
  let given: Record<string, unknown>;
  if (fields.length === 1 && only !== undefined) {
    given = { [only[0]]: answer };
  } else {
    try {
      const parsed = JSON.parse(answer) as unknown;
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        return { action: 'cancel' };
      }
      given = parsed as Record<string, unknown>;
    } catch {
      return { action: 'cancel' };
    }
  }
  const content: Record<string, string | number | boolean> = {};
  for (const [name, schema] of fields) {
    const value = name in given ? valueOf(schema, given[name]) : defaultOf(schema);
    if (value !== undefined) content[name] = value;
    else if (required(params).has(name)) return { action: 'cancel' };
  }
  return { action: 'accept', content };
}

function fieldsOf(params: ElicitParams): Field[] {
  if (params.mode === 'url') return [];
  return Object.entries(params.requestedSchema.properties);
}

function required(params: ElicitParams): Set<string> {
  return new Set(params.mode === 'url' ? [] : (params.requestedSchema.required ?? []));
}

/** The values of a single-choice field (enum or oneOf consts); booleans as yes/no. */
function choicesOf(schema: PrimitiveSchemaDefinition): string[] {
  if (schema.type === 'boolean') return YES_NO;
  if ('enum' in schema && Array.isArray(schema.enum)) return schema.enum.map(String);
  if ('oneOf' in schema && Array.isArray(schema.oneOf)) {
    return schema.oneOf.map((option) => String((option as { const: unknown }).const));
  }
  return [];
}

/** The answer text (or JSON value) as the field's type; undefined when it does not fit. */
function valueOf(
  schema: PrimitiveSchemaDefinition,
  value: unknown,
): string | number | boolean | undefined {
  switch (schema.type) {
    case 'boolean':
      if (typeof value === 'boolean') return value;
      return value === 'yes' || value === 'true'
        ? true
        : value === 'no' || value === 'false'
          ? false
          : undefined;
    case 'number':
    case 'integer': {
      const number = typeof value === 'number' ? value : Number(String(value).trim());
      if (!Number.isFinite(number) || (schema.type === 'integer' && !Number.isInteger(number))) {
        return undefined;
      }
      return number;
    }
    default: {
      const choices = choicesOf(schema);
      const text = String(value);
      return choices.length === 0 || choices.includes(text) ? text : undefined;
    }
  }
}

function defaultOf(schema: PrimitiveSchemaDefinition): string | number | boolean | undefined {
  const fallback = (schema as { default?: unknown }).default;
  return typeof fallback === 'string' ||
    typeof fallback === 'number' ||
    typeof fallback === 'boolean'
    ? fallback
    : undefined;
}

/** `name (type, required, default 3): description`, for the person. */
function describe(
  name: string,
  schema: PrimitiveSchemaDefinition,
  needed = new Set<string>(),
): string {
  const fallback = defaultOf(schema);
  // In a JSON object a boolean is true or false, not the yes/no a one-field form offers.
  const choices = schema.type === 'boolean' ? [] : choicesOf(schema);
  const traits = [
    choices.length > 0 ? `one of ${choices.join(', ')}` : schema.type,
    ...(needed.has(name) ? ['required'] : []),
    ...(fallback !== undefined ? [`default ${String(fallback)}`] : []),
  ];
  const about = (schema as { description?: string }).description ?? schema.title;
  return `${name} (${traits.join(', ')})${about === undefined ? '' : `: ${about}`}`;
}
