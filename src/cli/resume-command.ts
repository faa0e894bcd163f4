/**
 * `sortie resume RUN_ID [DIR]`: continues an interrupted or failed run from its journal. The
 * run keeps its id, journal and numbering; succeeded tasks are taken from the journal, the
 * rest continue (see RunOptions.resume). Refused while the run's process is still alive.
 */
import { UsageError } from '../base/errors.ts';
import type { Config } from '../config/config-types.ts';
import type { RunJournalState } from '../journal/restore.ts';
import { missionToContinue, readRunState, resumedInputs } from '../run/resume-state.ts';
import type { CliIo } from './io.ts';
import { parseInputFlags } from './input-flags.ts';
import { executeRun, prepareRun, processEnvironment, type RunEnvironment } from './run-command.ts';
import type { RunFlags } from './run.ts';

/** What `sortie resume` was given. */
export interface ResumeRequest {
  runId: string;
  directory: string;
  flags: RunFlags;
}

/** Resumes a run from the command line; returns the exit code. */
export function resumeCommand(
  request: ResumeRequest,
  io: CliIo,
  environment: RunEnvironment = processEnvironment(),
): Promise<number> {
  return continueJournaledRun(request.directory, request.flags, io, environment, (_config, dir) =>
    readRunState(dir, request.runId),
  );
}

/** Reads (or makes, for a fork) the journal of the run to continue. */
export type JournaledRunSource = (config: Config, stateDir: string) => Promise<RunJournalState>;

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
  let state: RunJournalState | undefined;
  const prepared = await prepareRun(
    { directory, mission: undefined, flags },
    io,
    environment,
    async (config, stateDir) => {
      state = await source(config, stateDir);
      const mission = missionToContinue(config, state);
      const given = parseInputFlags(
        flags.input ?? [],
        mission.inputs,
        mission.name,
        environment.cwd,
        {
          partial: true,
        },
      );
      return { mission, inputs: resumedInputs(mission, state, given) };
    },
  );
  // Set by the choice above, which prepareRun always calls.
  if (state === undefined) throw new UsageError('the run to continue could not be read');
  return executeRun(prepared, flags, io, environment, state);
}
