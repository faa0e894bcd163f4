/**
 * `sortie resume RUN_ID [DIR]`: continues an interrupted or failed run from its journal. The
 * run keeps its id, journal and numbering; succeeded tasks are taken from the journal, the
 * rest continue (see RunOptions.resume). Refused while the run's process is still alive.
 */
import { UsageError } from '../base/errors.ts';
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
export async function resumeCommand(
  request: ResumeRequest,
  io: CliIo,
  environment: RunEnvironment = processEnvironment(),
): Promise<number> {
  let state: RunJournalState | undefined;
  const prepared = await prepareRun(
    { directory: request.directory, mission: undefined, flags: request.flags },
    io,
    environment,
    async (config, stateDir) => {
      state = await readRunState(stateDir, request.runId);
      const mission = missionToContinue(config, state);
      const given = parseInputFlags(
        request.flags.input ?? [],
        mission.inputs,
        mission.name,
        environment.cwd,
        { partial: true },
      );
      return { mission, inputs: resumedInputs(mission, state, given) };
    },
  );
  // Set by the choice above, which prepareRun always calls.
  if (state === undefined) throw new UsageError(`run "${request.runId}" could not be read`);
  return executeRun(prepared, request.flags, io, environment, state);
}
