/**
 * `sortie fork RUN_ID --at SEQ [DIR]`: writes a new run's journal from another run's events up
 * to SEQ (run/fork-run.ts), the event at SEQ edited in $EDITOR with `--edit`, and continues it
 * like `sortie resume` (live, or from a cassette with `--replay-model`).
 */
import { UsageError } from '../base/errors.ts';
import { describeForkPoint, type ForkPoint } from '../journal/fork-journal.ts';
import { editDocument, editFileName, readEditedPoint } from '../run/fork-edit.ts';
import { planFork, type EditForkPoint } from '../run/fork-run.ts';
import { editText } from './editor.ts';
import type { ForkFlags } from './fork.ts';
import type { CliIo } from './io.ts';
import { continueJournaledRun, locateRun } from './resume-command.ts';
import { processEnvironment, type RunEnvironment } from './run-command.ts';

/** What `sortie fork` was given. */
export interface ForkCommandRequest {
  runId: string;
  /** The project; when not given, the one the run index recorded (else the current folder). */
  directory: string | undefined;
  flags: ForkFlags;
}

/**
 * Forks a run from the command line and runs the fork; returns the exit code. `preEdited` is a
 * fork point already edited and checked (`e` in the TUI): the fork takes it as `--edit` would.
 */
export async function forkCommand(
  request: ForkCommandRequest,
  io: CliIo,
  environment: RunEnvironment = processEnvironment(),
  preEdited?: ForkPoint,
): Promise<number> {
  const at = forkSeq(request.flags.at);
  // The parent is found from any folder; the fork is kept beside it.
  const parent = await locateRun(request, io, environment.cwd);
  const flags = { ...request.flags, ...parent.flags };
  return continueJournaledRun(parent.directory, flags, io, environment, async (config, dir) => {
    const edit: EditForkPoint | undefined =
      preEdited !== undefined
        ? () => Promise.resolve(preEdited)
        : flags.edit === true
          ? (point) => {
              const text = editText(editDocument(point), editFileName(point), io.env);
              return Promise.resolve(readEditedPoint(point, text, config));
            }
          : undefined;
    const fork = await planFork(dir, { parent: parent.runId, at, ...(edit ? { edit } : {}) });
    const edited = fork.edited ? ', edited' : '';
    // Written once every check of the run has passed: a fork that cannot start is no run.
    const create = async (): Promise<void> => {
      await fork.write();
      io.stderr(
        `forked run ${fork.state.runId} from ${fork.parentRunId} at ${describeForkPoint(fork.point)}${edited}\n`,
      );
    };
    return { state: fork.state, create };
  });
}

/** `--at`: a positive whole number. */
function forkSeq(text: string): number {
  const seq = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(seq) || seq < 1) {
    throw new UsageError(
      `--at ${text}: expected the seq of an event (a whole number from 1)`,
      "an event's seq is in --json output and in the run's journal.jsonl; a seq that is no fork point is answered with the nearest ones",
    );
  }
  return seq;
}
