/**
 * The flags that decide who answers the questions agents ask the person (`builtins_human_ask`):
 * `--no-human`, `--human-timeout SECONDS`, `--answer TEXT` (repeatable) and `--answers FILE`.
 * A person can answer only on a terminal: not with `--json`, not when stdin is not a TTY.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { RunOptions } from '../actors/contracts.ts';
import { UsageError } from '../base/errors.ts';
import { AnswerScript, type ScriptedAnswer } from '../runtime/answer-script.ts';
import type { CliIo } from './io.ts';
import type { OutputMode } from './output-mode.ts';
import { reasonOf } from '../base/reason.ts';

/** The human flags as commander parses them (`--no-human` sets `human: false`). */
export interface HumanFlags {
  human?: boolean;
  humanTimeout?: string;
  answer?: string[];
  answers?: string;
}

/** What the run's desk is given. */
export type HumanOptions = NonNullable<RunOptions['human']>;

/** The desk's options for a run shown in `mode`; a bad flag or answers file is a usage error. */
export async function humanOptions(
  flags: HumanFlags,
  mode: OutputMode,
  io: CliIo,
  cwd: string,
): Promise<HumanOptions> {
  const entries = [
    ...(flags.answers === undefined ? [] : await readAnswersFile(resolve(cwd, flags.answers))),
    ...(flags.answer ?? []).map((answer): ScriptedAnswer => ({ answer })),
  ];
  const timeoutSeconds = parseTimeout(flags.humanTimeout);
  return {
    available: flags.human !== false && mode !== 'json' && io.stdinIsTty === true,
    ...(timeoutSeconds !== undefined ? { timeoutSeconds } : {}),
    ...(entries.length > 0 ? { script: new AnswerScript(entries) } : {}),
  };
}

function parseTimeout(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const seconds = Number(text);
  if (text.trim() === '' || !Number.isFinite(seconds) || seconds <= 0) {
    throw new UsageError(
      `--human-timeout must be a number of seconds above 0, not "${text}"`,
      'for example --human-timeout 60',
    );
  }
  return seconds;
}

const FILE_HINT =
  'write a list whose entries are an answer ("eu"), a list of choices (["a", "b"]) or ' +
  '{ answer, actor, question }';

/** The entries of an answers file: a JSON or YAML list. */
async function readAnswersFile(path: string): Promise<ScriptedAnswer[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new UsageError(`--answers: cannot read ${path} (${code})`);
  }
  let parsed: unknown;
  try {
    parsed = parseYaml(text);
  } catch (error) {
    const reason = reasonOf(error).split('\n')[0];
    throw new UsageError(`--answers: ${path} is not JSON or YAML: ${reason}`, FILE_HINT);
  }
  if (!Array.isArray(parsed)) {
    throw new UsageError(`--answers: ${path} must hold a list of answers`, FILE_HINT);
  }
  return parsed.map((entry: unknown, index) => answerEntry(entry, `${path} entry ${index + 1}`));
}

function isTextList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

function answerEntry(entry: unknown, where: string): ScriptedAnswer {
  if (typeof entry === 'string' || typeof entry === 'number' || typeof entry === 'boolean') {
    return { answer: String(entry) };
  }
  if (isTextList(entry)) return { answer: entry };
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
    throw new UsageError(`--answers: ${where} is not an answer`, FILE_HINT);
  }
  const { answer, actor, question, ...rest } = entry as Record<string, unknown>;
  const unknown = Object.keys(rest);
  if (unknown.length > 0) {
    throw new UsageError(`--answers: ${where} has unknown key "${unknown[0]}"`, FILE_HINT);
  }
  if (typeof answer !== 'string' && !isTextList(answer)) {
    throw new UsageError(`--answers: ${where} needs "answer": a text or a list of texts`);
  }
  for (const [name, value] of [
    ['actor', actor],
    ['question', question],
  ] as const) {
    if (value !== undefined && typeof value !== 'string') {
      throw new UsageError(`--answers: ${where}: "${name}" must be a text`);
    }
  }
  return {
    answer,
    ...(typeof actor === 'string' ? { actor } : {}),
    ...(typeof question === 'string' ? { question } : {}),
  };
}
