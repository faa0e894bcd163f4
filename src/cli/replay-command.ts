/**
 * `sortie replay`: reads a journal (a run of the state directory, or a file) and plays it:
 * the TUI on an interactive terminal, else the plain line log of every recorded event at once
 * with the recorded timestamps. Exit 0 once played, whatever the recorded run's outcome.
 */
import { join, resolve } from 'node:path';
import { UsageError } from '../base/errors.ts';
import { readJournal } from '../journal/reader.ts';
import { JOURNAL_FILE_NAME } from '../journal/paths.ts';
import { MAX_SPEED, MIN_SPEED } from '../tui/replay-player.ts';
import { ExitCode } from '../base/exit-codes.ts';
import { findRun, kindOf, type FoundRun } from '../run/find-run.ts';
import { useColor, type CliIo } from './io.ts';
import { inCi } from './output-mode.ts';
import { createPlainPrinter } from './plain/index.ts';
import type { ReplayFlags } from './replay-source.ts';
import { loadForRun } from './load-for-run.ts';
import { processEnvironment } from './run-command.ts';
import { stateDirFor } from './state-dir.ts';
import { forkFromTui, TuiForks } from './tui-fork.ts';

/** What `sortie replay` was given. */
export interface ReplayRequest {
  run: string;
  directory: string;
  flags: ReplayFlags;
}

/** Plays a journal back; returns the exit code. */
export async function replayCommand(request: ReplayRequest, io: CliIo): Promise<number> {
  const speed = parseSpeed(request.flags.speed);
  const { path, run } = await journalOf(request, io);
  const { events, problems } = await readJournal(path);
  for (const problem of problems) io.stderr(`warning: ${path}: ${problem}\n`);
  if (events.length === 0) throw new UsageError(`journal ${path} holds no events`);
  if (replayShowsTui(request.flags, io)) {
    const { playInTui } = await import('./replay-tui.ts');
    const project = run?.project ?? request.directory;
    // A run of a state directory can be forked from its replay (`f`, `e`); a bare file cannot.
    const forks =
      run === undefined
        ? undefined
        : new TuiForks(async () => (await loadForRun(project, {}, io.env)).config, io.env);
    for (const event of events) forks?.record(event);
    await playInTui(events, {
      speed,
      keepPauses: request.flags.keepPauses === true,
      color: useColor(io, 'stdout'),
      ...(forks === undefined ? {} : { forker: forks }),
    });
    const chosen = forks?.chosen;
    if (run === undefined || chosen === undefined) return ExitCode.ok;
    const parent = { runId: run.runId, project, flags: { chain: true, stateDir: run.stateDir } };
    return forkFromTui(chosen, parent, io, processEnvironment());
  }
  // The plain line log (the run's first line names the journal), then its summary.
  const printer = createPlainPrinter({
    write: io.stdout,
    color: useColor(io, 'stdout'),
    journalOf: () => path,
  });
  for (const event of events) printer.onEvent(event);
  printer.printSummary();
  return ExitCode.ok;
}

/** Whether the replay opens the TUI: a terminal, no `--plain`, and not in CI as Ink decides it. */
export function replayShowsTui(flags: Pick<ReplayFlags, 'plain'>, io: CliIo): boolean {
  return io.stdoutIsTty && !inCi(io.env) && flags.plain !== true;
}

/** `--speed`: a number from MIN_SPEED to MAX_SPEED. */
export function parseSpeed(text: string): number {
  const speed = Number(text);
  if (text.trim() === '' || !Number.isFinite(speed) || speed < MIN_SPEED || speed > MAX_SPEED) {
    throw new UsageError(
      `--speed ${text}: expected a number from ${MIN_SPEED} to ${MAX_SPEED}`,
      '1 plays at the recorded pace, 2 twice as fast',
    );
  }
  return speed;
}

/**
 * An existing file is a journal, an existing run folder holds one; anything else is a run id
 * (or prefix) of the state directory (then the run is found too).
 */
async function journalOf(
  request: ReplayRequest,
  io: CliIo,
): Promise<{ path: string; run?: FoundRun }> {
  const given = resolve(request.run);
  const kind = kindOf(given);
  if (kind === 'file') return { path: given };
  if (kind === 'folder') {
    const inside = join(given, JOURNAL_FILE_NAME);
    if (kindOf(inside) !== 'missing') return { path: inside };
    throw new UsageError(
      `${request.run} is a folder without a ${JOURNAL_FILE_NAME}`,
      'give a run id (see sortie runs), a run folder or a journal file',
    );
  }
  stateDirFor(request.directory, request.flags.stateDir, io);
  const search = { stateDir: request.flags.stateDir, directory: request.directory, env: io.env };
  const run = await findRun(request.run, search);
  return { path: run.journal, run };
}
