/**
 * A question that asks for a form (an MCP server's elicitation) as the terminal UI fills it:
 * one value per field, defaults filled in, the focused field, and on sending either the JSON
 * object of the fields or what is wrong, shown in the form. Text and number fields are typed;
 * booleans and enums are picked from their values. Pure: the app keeps the form in its view.
 */
import type { HumanFormField } from '../../base/events.ts';

/** The form being filled for one question. */
export interface AnswerForm {
  /** The question it answers (`formKey`): another question starts another form. */
  key: string;
  /** Each field's value as text, in field order ('' = not given). */
  values: readonly string[];
  focus: number;
  /** What was wrong with the last try to send it. */
  problem: string | null;
}

/** What a filled form sends: the fields' values, or what is wrong and the field to fix. */
export type FormOutcome =
  | { ok: true; answer: Record<string, string | number | boolean> }
  | { ok: false; problem: string; focus: number };

/** The key of the question `actor`'s call `callId` asks. */
export function formKey(question: { actor: string; callId: string }): string {
  return `${question.actor}\u0000${question.callId}`;
}

/** The values a field is picked from; empty for a typed one. Optional ones may stay unset. */
export function optionsOf(field: HumanFormField): string[] {
  const values = field.type === 'boolean' ? ['yes', 'no'] : field.choices;
  if (values.length === 0) return [];
  return field.required || field.default !== null ? values : ['', ...values];
}

function textOf(value: string | number | boolean | null): string {
  if (value === null) return '';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return String(value);
}

/** A new form for the question `key`, its fields' defaults filled in. */
export function formFor(key: string, fields: readonly HumanFormField[]): AnswerForm {
  return { key, values: fields.map((field) => textOf(field.default)), focus: 0, problem: null };
}

/** `form` when it belongs to the question `key`, else a new one. */
export function formOf(
  form: AnswerForm | null,
  key: string,
  fields: readonly HumanFormField[],
): AnswerForm {
  return form !== null && form.key === key ? form : formFor(key, fields);
}

function withValue(form: AnswerForm, value: string): AnswerForm {
  const values = form.values.map((old, index) => (index === form.focus ? value : old));
  return { ...form, values, problem: null };
}

/** Typed text goes to the focused field (a picked field ignores it). */
export function typeInto(
  form: AnswerForm,
  fields: readonly HumanFormField[],
  text: string,
): AnswerForm {
  const field = fields[form.focus];
  if (field === undefined || optionsOf(field).length > 0) return form;
  return withValue(form, (form.values[form.focus] ?? '') + text);
}

/** Erases the focused field's last character (a picked field is left as it is). */
export function eraseIn(form: AnswerForm, fields: readonly HumanFormField[]): AnswerForm {
  const field = fields[form.focus];
  if (field === undefined || optionsOf(field).length > 0) return form;
  return withValue(form, (form.values[form.focus] ?? '').slice(0, -1));
}

/** Focuses the next (`step` 1) or previous (-1) field, round the end. */
export function moveField(
  form: AnswerForm,
  fields: readonly HumanFormField[],
  step: number,
): AnswerForm {
  if (fields.length === 0) return form;
  return { ...form, focus: (form.focus + step + fields.length) % fields.length };
}

/** Picks the focused field's next (`step` 1) or previous (-1) value, round the end. */
export function pickValue(
  form: AnswerForm,
  fields: readonly HumanFormField[],
  step: number,
): AnswerForm {
  const field = fields[form.focus];
  const options = field === undefined ? [] : optionsOf(field);
  if (options.length === 0) return form;
  const at = options.indexOf(form.values[form.focus] ?? '');
  return withValue(form, options[(at + step + options.length) % options.length] ?? '');
}

/** One field's value as JSON, undefined when not given, or what is wrong with it. */
function fieldValue(
  field: HumanFormField,
  text: string,
): { value?: string | number | boolean; problem?: string } {
  const trimmed = text.trim();
  if (trimmed === '') return field.required ? { problem: `${field.label} is required` } : {};
  if (field.type === 'boolean') return { value: trimmed === 'yes' };
  if (field.type === 'string') return { value: text };
  const number = Number(trimmed);
  if (!Number.isFinite(number)) return { problem: `${field.label} must be a number` };
  if (field.type === 'integer' && !Number.isInteger(number)) {
    return { problem: `${field.label} must be a whole number` };
  }
  return { value: number };
}

/** What the form sends: the JSON object of the fields given, or the first field's problem. */
export function formAnswer(form: AnswerForm, fields: readonly HumanFormField[]): FormOutcome {
  const answer: Record<string, string | number | boolean> = {};
  for (const [index, field] of fields.entries()) {
    const { value, problem } = fieldValue(field, form.values[index] ?? '');
    if (problem !== undefined) return { ok: false, problem, focus: index };
    if (value !== undefined) answer[field.name] = value;
  }
  return { ok: true, answer };
}
