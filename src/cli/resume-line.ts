/**
 * The `sortie resume …` line printed when a run does not succeed: the flags the run needs to
 * go on the same way (its model source, state directory, variables, unjournaled inputs, run
 * options), each word quoted for a POSIX shell, so that the line works as printed. Secret
 * variables and protected inputs are never printed: the line names them instead.
 */
import { isAbsolute, relative } from 'node:path';
import type { Config, MissionConfig } from '../config/config-types.ts';
import type { RunFlags } from './run.ts';

/** Where the run is and what it was started with. */
export interface ResumeLineSource {
  runId: string;
  /** The project root (absolute), printed relative to `cwd` when it is below it. */
  root: string;
  cwd: string;
  flags: RunFlags;
  config: Config;
  mission: MissionConfig;
}

/** A word as a POSIX shell reads it back unchanged: bare when safe, else single-quoted. */
export function shellWord(word: string): string {
  if (/^[\w@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * The inputs a continued run needs again (`--input`): the journal keeps every input but the
 * protected ones and files.
 */
export function unjournaledInputs(mission: MissionConfig): Set<string> {
  return new Set(
    (mission.inputs?.fields ?? [])
      .filter((field) => field.protected || field.file)
      .map((field) => field.name),
  );
}

/** The command, and what it leaves out (secrets), to say on a line of its own. */
export interface ResumeLine {
  command: string;
  withheld?: string;
}

/** `sortie resume RUN [DIR] [flags]`, and the flags left out because they hold secrets. */
export function resumeLine(source: ResumeLineSource): ResumeLine {
  const { flags } = source;
  const words = ['sortie', 'resume', source.runId];
  const below = relative(source.cwd, source.root);
  if (below !== '') words.push(below.startsWith('..') || isAbsolute(below) ? source.root : below);
  const option = (name: string, value: string | undefined): void => {
    if (value !== undefined) words.push(name, value);
  };
  option('--state-dir', flags.stateDir);
  option('--mock-model', flags.mockModel);
  option('--replay-model', flags.replayModel);
  if (flags.replayLenient === true) words.push('--replay-lenient');
  const withheld: string[] = [];
  for (const spec of flags.var ?? []) {
    const name = spec.split('=')[0] ?? '';
    // A variable without a block is read like a secret (config.md), so it is withheld too.
    if (source.config.variables.get(name)?.secret === false) words.push('--var', spec);
    else withheld.push(`--var ${name}=…`);
  }
  const unjournaled = unjournaledInputs(source.mission);
  const protectedInputs = new Set(
    (source.mission.inputs?.fields ?? []).filter((field) => field.protected).map((f) => f.name),
  );
  for (const spec of flags.input ?? []) {
    const name = spec.split('=')[0] ?? '';
    if (!unjournaled.has(name)) continue;
    if (protectedInputs.has(name)) withheld.push(`--input ${name}=…`);
    else words.push('--input', spec);
  }
  if (flags.keepGoing === true) words.push('--keep-going');
  if (flags.chain === false) words.push('--no-chain');
  if (flags.queue !== undefined) {
    if (hasPassword(flags.queue)) withheld.push('--queue URL');
    else words.push('--queue', flags.queue);
  }
  if (flags.human === false) words.push('--no-human');
  option('--human-timeout', flags.humanTimeout);
  if (flags.plain === true) words.push('--plain');
  if (flags.quiet === true) words.push('--quiet');
  const command = words.map(shellWord).join(' ');
  if (withheld.length === 0) return { command };
  return { command, withheld: `  adding what is not printed here: ${withheld.join(' ')}` };
}

/** Whether a URL carries a password (`redis://:secret@host`), which is not printed. */
function hasPassword(url: string): boolean {
  try {
    return new URL(url).password !== '';
  } catch {
    return false;
  }
}
