/**
 * A webhook's or the API's JSON object turned into a mission's inputs: typed JSON values are
 * taken as they are, strings for inputs of other types are converted as the CLI converts them
 * (the reference runtime's webhooks pass strings), and file inputs come as
 * `{"filename", "content_base64"}` or `base64:DATA[#FILENAME]`. A path on the server is never a
 * file input here: a caller must not make the server read its own files. Every bad input is
 * reported with its name.
 */
import type { MissionConfig } from '../config/config-types.ts';
import { didYouMean } from '../base/suggest.ts';
import { convertInputText } from '../config/input-text.ts';
import { FILE_MARKER, validate } from '../schema/index.ts';

/** One input that cannot be used, by name ('' for the body as a whole). */
export interface InputProblem {
  input: string;
  message: string;
}

/** The inputs with defaults applied, or every problem found. */
export type RequestInputs =
  { ok: true; inputs: Record<string, unknown> } | { ok: false; problems: InputProblem[] };

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Converts and checks `body` against the mission's inputs. */
export function requestInputs(mission: MissionConfig, body: unknown): RequestInputs {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, problems: [{ input: '', message: 'the inputs must be a JSON object' }] };
  }
  const schema = mission.inputs;
  const properties = (schema?.jsonSchema.properties ?? {}) as Record<
    string,
    Record<string, unknown>
  >;
  const names = schema?.fields.map((field) => field.name) ?? [];
  const values: Record<string, unknown> = {};
  const problems: InputProblem[] = [];
  for (const [name, given] of Object.entries(body)) {
    const property = properties[name];
    if (property === undefined || !names.includes(name)) {
      const message = `mission "${mission.name}" has no input "${name}"${didYouMean(name, names)}`;
      problems.push({ input: name, message });
      continue;
    }
    const converted =
      property[FILE_MARKER] === true
        ? fileInput(name, given)
        : typeof given === 'string' && property.type !== 'string'
          ? convertInputText(given, property)
          : { value: given };
    if ('problem' in converted) problems.push({ input: name, message: converted.problem });
    else values[name] = converted.value;
  }
  for (const field of schema?.fields ?? []) {
    if (
      field.required &&
      !(field.name in values) &&
      !problems.some((p) => p.input === field.name)
    ) {
      problems.push({ input: field.name, message: 'is required' });
    }
  }
  if (problems.length > 0 || schema === undefined) {
    return problems.length > 0 ? { ok: false, problems } : { ok: true, inputs: values };
  }
  const checked = validate(schema.jsonSchema, values, { applyDefaults: true });
  for (const problem of checked.problems) {
    // `/count` names the input `count`; a problem deeper in keeps its pointer for the detail.
    const [, input = '', ...rest] = problem.path.split('/');
    const where = rest.length > 0 ? `/${rest.join('/')}: ` : '';
    problems.push({ input, message: `${where}${problem.message}` });
  }
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, inputs: checked.value as Record<string, unknown> };
}

/** A file input's upload in one of its two forms, as the run's `{base64, filename}`. */
function fileInput(name: string, given: unknown): { value: unknown } | { problem: string } {
  const shape = 'a file input takes {"filename", "content_base64"} or "base64:DATA[#FILENAME]"';
  if (typeof given === 'string') {
    if (!given.startsWith('base64:')) return { problem: shape };
    // `#` is not in the base64 alphabet, so `base64:DATA#report.pdf` names the upload.
    const [data = '', filename] = given.slice('base64:'.length).split(/#(.*)/s);
    return upload(data, filename ?? name);
  }
  if (typeof given !== 'object' || given === null || Array.isArray(given))
    return { problem: shape };
  const { filename, content_base64: content, ...rest } = given as Record<string, unknown>;
  if (typeof content !== 'string' || Object.keys(rest).length > 0) return { problem: shape };
  if (filename !== undefined && typeof filename !== 'string') {
    return { problem: 'filename must be a string' };
  }
  return upload(content, filename ?? name);
}

function upload(data: string, filename: string): { value: unknown } | { problem: string } {
  if (!BASE64.test(data)) return { problem: 'not valid base64' };
  if (filename === '' || /[/\\\0]/.test(filename)) {
    return { problem: 'the file name must be a plain file name (no slashes)' };
  }
  return { value: { base64: data, filename } };
}
