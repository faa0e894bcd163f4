/**
 * Makes a fork of a journaled run (`sortie fork`): reads the parent's journal, finds the fork
 * point, lets the caller edit it, and plans the fork's journal (journal/fork-journal.ts) under
 * a new run id, written only when the caller says so: a fork that cannot run (its project's
 * configuration or variables fail) leaves no run behind. Once written, the fork is an
 * interrupted run like any other: resuming it continues from the point.
 */
import { forkEvents, forkPointAt, type ForkPoint } from '../journal/fork-journal.ts';
import { runPaths } from '../journal/paths.ts';
import { readJournal } from '../journal/reader.ts';
import { restoreFromJournal, type RunJournalState } from '../journal/restore.ts';
import { openJournal } from '../journal/writer.ts';
import { findRunInStateDir } from './find-run.ts';
import { newRunId } from './start-run.ts';

/** Edits a fork point: the edited event, or undefined to keep it as it was. */
export type EditForkPoint = (point: ForkPoint) => Promise<ForkPoint | undefined>;

/** What `createFork` was asked. */
export interface ForkRequest {
  /** The parent run: an id or an unambiguous prefix. */
  parent: string;
  at: number;
  edit?: EditForkPoint;
}

/** A fork planned in memory, ready to be written to the state directory and resumed. */
export interface PlannedFork {
  parentRunId: string;
  point: ForkPoint;
  edited: boolean;
  /** The fork's journal as resume reads it. */
  state: RunJournalState;
  /** Writes the fork's journal; until then the state directory holds no trace of the fork. */
  write(): Promise<void>;
}

/**
 * Plans the fork's journal under a new run id. The parent may still be running (its journal
 * is read as far as it is written). Throws a usage error for an unknown run or a seq that is
 * not a fork point, or when `edit` throws; nothing is written before `write()`.
 */
export async function planFork(stateDir: string, request: ForkRequest): Promise<PlannedFork> {
  const parentRunId = await findRunInStateDir(stateDir, request.parent);
  const { events } = await readJournal(runPaths(stateDir, parentRunId).journal);
  const point = forkPointAt(events, request.at, parentRunId);
  const edited = request.edit === undefined ? undefined : await request.edit(point);
  const runId = newRunId();
  const forked = forkEvents(events, {
    parentRunId,
    runId,
    point,
    ...(edited !== undefined ? { edited } : {}),
  });
  return {
    parentRunId,
    point,
    edited: edited !== undefined,
    state: restoreFromJournal(runId, forked),
    write: async () => {
      const writer = await openJournal(runPaths(stateDir, runId).dir, { fresh: true });
      for (const event of forked) writer.subscriber(event);
      await writer.close();
      if (writer.failure !== undefined) throw writer.failure;
    },
  };
}
