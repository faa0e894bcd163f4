/**
 * Mission inputs as a run uses them: defaults applied and validated, file inputs turned into
 * read-only `input.NAME` slots (base64 uploads written into the run directory first), and
 * protected values set aside for `${secrets.NAME}`.
 */
import { stat, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import type { MissionConfig } from '../config/config-types.ts';
import { checkedInputs } from '../actors/mission/run-checks.ts';
import { protectedInputValues } from './run-redactor.ts';
import { makeDirectory } from '../base/make-directory.ts';

/** What a mission's prepared inputs give the run services. */
export interface PreparedInputs {
  /** Validated inputs with defaults; file inputs replaced by `{slot, path?}` references. */
  inputs: Record<string, unknown>;
  /** File inputs by input name, as slot sources. */
  files: Record<string, { path: string }>;
  /** Protected input values by input name. */
  secrets: Map<string, string>;
}

/** A file input as agents reach it: the slot, and the file's name inside it (files only). */
export interface FileInputReference {
  slot: string;
  path?: string;
}

/**
 * Applies defaults, validates (a mismatch is a UsageError listing every problem), and
 * materialises file inputs: `{path}` is used where it is (relative paths from `cwd`),
 * `{base64, filename}` is written to `<runDir>/inputs/NAME/FILENAME`.
 */
export async function prepareMissionInputs(
  mission: MissionConfig,
  given: Record<string, unknown>,
  runDir: string,
  cwd: string = process.cwd(),
): Promise<PreparedInputs> {
  const withDefaults = checkedInputs(mission, given);
  const secrets = protectedInputValues(mission, withDefaults);
  const inputs: Record<string, unknown> = { ...withDefaults };
  const files: Record<string, { path: string }> = {};
  for (const field of mission.inputs?.fields ?? []) {
    const value = withDefaults[field.name];
    if (!field.file || typeof value !== 'object' || value === null) continue;
    const path = await materialise(field.name, value as Record<string, unknown>, runDir, cwd);
    files[field.name] = { path };
    inputs[field.name] = await fileReference(field.name, path);
  }
  return { inputs, files, secrets };
}

async function materialise(
  name: string,
  value: Record<string, unknown>,
  runDir: string,
  cwd: string,
): Promise<string> {
  if (typeof value.path === 'string') return resolve(cwd, value.path);
  const directory = join(runDir, 'inputs', name);
  await makeDirectory(directory);
  const path = join(directory, safeFileName(value.filename, name));
  await writeFile(path, Buffer.from(String(value.base64 ?? ''), 'base64'));
  return path;
}

/** Only the last component of an upload's name is used, so it cannot leave its folder. */
function safeFileName(filename: unknown, fallback: string): string {
  const name = typeof filename === 'string' ? basename(filename.replaceAll('\\', '/')) : '';
  return name === '' || name === '.' || name === '..' ? fallback : name;
}

async function fileReference(name: string, path: string): Promise<FileInputReference> {
  const slot = `input.${name}`;
  // A `{path}` input may name a directory: the slot is then that directory as a whole.
  const isDirectory = (await stat(path).catch(() => undefined))?.isDirectory() === true;
  return isDirectory ? { slot } : { slot, path: basename(path) };
}
