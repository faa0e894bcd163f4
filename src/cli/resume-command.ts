/**
 * `sortie resume RUN_ID [DIR]`: continues an interrupted or failed run from its journal. The
 * run keeps its id, journal and numbering; succeeded tasks are taken from the journal, the
 * rest continue (see RunOptions.resume). Refused while the run's process is still alive.
 */
import { UsageError } from '../base/errors.ts';
import type { Config } from '../config/config-types.ts';
import type { RunJournalState } from '../journal/restore.ts';
import { findRun, projectStateDir } from '../run/find-run.ts';
import { continuedChat } from '../run/chat-mission.ts';
import { missionToContinue, readRunState, resumedInputs } from '../run/resume-state.ts';
import { executeChat } from './chat-command.ts';
import type { CliIo } from './io.ts';
import { parseInputFlags } from './input-flags.ts';
import { executeRun, prepareRun, processEnvironment, type RunEnvironment } from './run-command.ts';
import type { RunFlags } from './run.ts';

/** What `sortie resume` was given. */
export interface ResumeRequest {
  runId: string;
  /** The project; when not given, the one the run index recorded (else the current folder). */
  directory: string | undefined;
  flags: RunFlags;
}

/** Resumes a run from the command line; returns the exit code. */
export async function resumeCommand(
  request: ResumeRequest,
  io: CliIo,
  environment: RunEnvironment = processEnvironment(),
): Promise<number> {
  const { runId, directory, flags } = await locateRun(request, io, environment.cwd);
  return continueJournaledRun(directory, flags, io, environment, async (_config, dir) => ({
    state: await readRunState(dir, runId),
  }));
}

/** The run to continue: its journal's state, and for a fork how to write that journal. */
export interface JournaledRun {
  state: RunJournalState;
  /** Writes the run's journal; called once every check has passed, before the run starts. */
  create?: () => Promise<void>;
}

/** Reads (or plans, for a fork) the journal of the run to continue. */
export type JournaledRunSource = (config: Config, stateDir: string) => Promise<JournaledRun>;

/**
 * Continues the journaled run `source` gives (`resume`, `fork`): its mission, its inputs from
 * the journal with `--input` for the protected and file ones, run to its end like `sortie run`.
 */
export async function continueJournaledRun(
  directory: string,
  flags: RunFlags,
  io: CliIo,
  environment: RunEnvironment,
  source: JournaledRunSource,
): Promise<number> {
  let journaled: JournaledRun | undefined;
  const prepared = await prepareRun(
    { directory, mission: undefined, flags },
    io,
    environment,
    async (config, stateDir) => {
      journaled = await source(config, stateDir);
      const { state } = journaled;
      if (state.chat !== undefined) return continuedChat(config, state.chat);
      const mission = missionToContinue(config, state);
      const given = parseInputFlags(
        flags.input ?? [],
        mission.inputs,
        mission.name,
        environment.cwd,
        { partial: true },
      );
      return { mission, inputs: resumedInputs(mission, state, given) };
    },
  );
  // Set by the choice above, which prepareRun always calls.
  if (journaled === undefined) throw new UsageError('the run to continue could not be read');
  const { state, create } = journaled;
  if (prepared.chat !== undefined) {
    // A chat follows no routes, as when it started.
    return executeChat(prepared, { ...flags, chain: false }, io, environment, state, create);
  }
  return executeRun(prepared, flags, io, environment, state, create);
}

/**
 * The run to resume, found from any folder: its full id, its project (the one given, else the
 * one the run index recorded), and `--state-dir` set when the run lives elsewhere than that
 * project's own state directory.
 */
export async function locateRun(
  request: ResumeRequest,
  io: CliIo,
  cwd: string,
): Promise<{ runId: string; directory: string; flags: RunFlags }> {
  const { flags } = request;
  const search = { stateDir: flags.stateDir, directory: request.directory, env: io.env, cwd };
  const run = await findRun(request.runId, search);
  const directory = request.directory ?? run.project ?? '.';
  const elsewhere =
    flags.stateDir === undefined && run.stateDir !== projectStateDir(directory, io.env, cwd);
  return {
    runId: run.runId,
    directory,
    flags: elsewhere ? { ...flags, stateDir: run.stateDir } : flags,
  };
}
