/**
 * What resuming a run needs from its journal (`sortie resume` and the library's
 * `resumeMission`): the journal itself, refused while its writer lives or after success, the
 * mission to continue, and its inputs with the protected and file ones given again.
 */
import type { Config, MissionConfig } from '../config/config-types.ts';
import { UsageError } from '../base/errors.ts';
import { runPaths } from '../journal/paths.ts';
import { readJournal } from '../journal/reader.ts';
import { missionToResume, restoreFromJournal, type RunJournalState } from '../journal/restore.ts';
import { journalWriterAlive } from '../journal/runs.ts';
import { findRunInStateDir } from './find-run.ts';
import { pickMission } from './pick-mission.ts';

/** The journal of the run, refused while its writer is alive or when it already succeeded. */
export async function readRunState(stateDir: string, idOrPrefix: string): Promise<RunJournalState> {
  const runId = await findRunInStateDir(stateDir, idOrPrefix);
  const paths = runPaths(stateDir, runId);
  if (await journalWriterAlive(paths.dir)) {
    throw new UsageError(
      `run ${runId} is still running: another sortie process is writing its journal`,
      'wait for it to finish, or stop it (Ctrl-C) before resuming',
    );
  }
  const { events } = await readJournal(paths.journal);
  const state = restoreFromJournal(runId, events);
  if (state.finished === 'succeeded') {
    throw new UsageError(`run ${runId} succeeded; there is nothing to resume`);
  }
  if (state.missions.length === 0) {
    throw new UsageError(`run ${runId} stopped before its mission started; run it again instead`);
  }
  return state;
}

/** The project's mission the resumed run continues (see `missionToResume`). */
export function missionToContinue(config: Config, state: RunJournalState): MissionConfig {
  return pickMission(config, missionToResume(state)?.name);
}

/**
 * The journaled inputs, with the ones a journal never keeps — protected inputs (masked) and
 * files (kept as slot references) — taken from `--input` again; left out, an optional one
 * falls back to its default and a required one is an error.
 */
export function resumedInputs(
  mission: MissionConfig,
  state: RunJournalState,
  given: Record<string, unknown>,
): Record<string, unknown> {
  const journaled = state.missions.find((entry) => entry.name === mission.name)?.inputs ?? {};
  const inputs: Record<string, unknown> = {};
  const missing: string[] = [];
  for (const field of mission.inputs?.fields ?? []) {
    if (field.name in given) inputs[field.name] = given[field.name];
    else if (field.protected || field.file) {
      if (field.required) missing.push(field.name);
    } else if (field.name in journaled) inputs[field.name] = journaled[field.name];
  }
  if (missing.length > 0) {
    throw new UsageError(
      `the journal does not keep protected or file inputs; mission "${mission.name}" needs ${missing.map((name) => `"${name}"`).join(', ')} again`,
      `pass ${missing.map((name) => `--input ${name}=VALUE`).join(' ')}`,
    );
  }
  return inputs;
}
