import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from '../base/errors.ts';
import type { ConfigSchema } from '../config/config-types.ts';
import { FILE_MARKER, formatProblem, validate } from '../schema/index.ts';
import { didYouMean } from '../base/suggest.ts';
import { convertInputText, type ConvertedInput } from '../config/input-text.ts';

type PropertySchema = Record<string, unknown>;

/**
 * Turns `--input NAME=VALUE` flags into a mission's input object (config.md "Mission inputs"):
 * strings converted by the input's type, `@PATH` and `base64:DATA` for file inputs, defaults
 * applied, then validated. Every problem is collected into one UsageError (exit 2). `partial`
 * flags only add to inputs known from elsewhere (a resumed run's journal): each is converted,
 * nothing is required, no default is applied and the whole is validated later.
 */
export function parseInputFlags(
  flags: readonly string[],
  inputs: ConfigSchema | undefined,
  mission: string,
  cwd: string = process.cwd(),
  options: { partial?: boolean } = {},
): Record<string, unknown> {
  const properties = (inputs?.jsonSchema.properties ?? {}) as Record<string, PropertySchema>;
  const names = inputs?.fields.map((field) => field.name) ?? [];
  const values: Record<string, unknown> = {};
  const problems: string[] = [];
  const given = new Set<string>();
  for (const flag of flags) {
    const separator = flag.indexOf('=');
    if (separator <= 0) {
      problems.push(`--input ${flag}: expected NAME=VALUE`);
      continue;
    }
    const name = flag.slice(0, separator);
    const text = flag.slice(separator + 1);
    const property = properties[name];
    if (property === undefined || !names.includes(name)) {
      problems.push(
        `--input ${name}: mission "${mission}" has no input "${name}"${didYouMean(name, names)}`,
      );
      continue;
    }
    if (given.has(name)) {
      problems.push(`--input ${name}: given more than once; give each input once`);
      continue;
    }
    given.add(name);
    const converted =
      property[FILE_MARKER] === true
        ? fileValue(name, text, cwd)
        : convertInputText(text, property);
    if ('problem' in converted) problems.push(`--input ${flag}: ${converted.problem}`);
    else values[name] = converted.value;
  }
  if (options.partial === true) {
    if (problems.length === 0) return values;
    throw new UsageError(`invalid inputs for mission "${mission}":\n  ${problems.join('\n  ')}`);
  }
  for (const field of inputs?.fields ?? []) {
    if (field.required && !(field.name in values)) {
      const description = field.description === undefined ? '' : ` (${field.description})`;
      problems.push(
        `missing required input "${field.name}"${description}: give it with --input ${field.name}=VALUE`,
      );
    }
  }
  if (problems.length === 0 && inputs) {
    const checked = validate(inputs.jsonSchema, values, { applyDefaults: true });
    for (const problem of checked.problems) problems.push(`input ${formatProblem(problem)}`);
    if (problems.length === 0) return checked.value as Record<string, unknown>;
  }
  if (problems.length === 0) return values;
  const [first] = problems;
  if (problems.length === 1 && first !== undefined) throw new UsageError(first);
  throw new UsageError(`invalid inputs for mission "${mission}":\n  ${problems.join('\n  ')}`);
}

/**
 * `@PATH` (relative to the working directory, must exist) or `base64:DATA[#FILENAME]`; an
 * upload with no `#FILENAME` is named after the input.
 */
function fileValue(name: string, text: string, cwd: string): ConvertedInput {
  if (text.startsWith('@')) {
    const path = text.slice(1);
    const absolute = resolve(cwd, path);
    const kind = (() => {
      try {
        return statSync(absolute).isFile() ? 'file' : 'other';
      } catch {
        return 'missing';
      }
    })();
    if (kind === 'file') return { value: { path: absolute } };
    return { problem: kind === 'missing' ? `file not found: ${path}` : `not a file: ${path}` };
  }
  if (text.startsWith('base64:')) {
    // `#` is not in the base64 alphabet, so `base64:DATA#report.pdf` names the upload.
    const [data = '', filename] = text.slice('base64:'.length).split(/#(.*)/s);
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(data)) return { problem: 'not valid base64' };
    if (filename !== undefined && (filename === '' || /[/\\\0]/.test(filename))) {
      return { problem: 'the name after # must be a plain file name (no slashes)' };
    }
    return { value: { base64: data, filename: filename ?? name } };
  }
  return { problem: 'a file input takes @PATH, base64:DATA or base64:DATA#FILENAME' };
}
