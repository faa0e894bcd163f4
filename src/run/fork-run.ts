/**
 * Makes a fork of a journaled run (`sortie fork`): reads the parent's journal, finds the fork
 * point, lets the caller edit it, and writes the fork's journal (journal/fork-journal.ts) under a new run
 * id. The fork is then an interrupted run like any other: resuming it continues from the point.
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

/** A fork written to the state directory, ready to resume. */
export interface CreatedFork {
  parentRunId: string;
  point: ForkPoint;
  edited: boolean;
  /** The fork's journal as resume reads it. */
  state: RunJournalState;
}

/**
 * Writes the fork's journal under a new run id. The parent may still be running (its journal
 * is read as far as it is written). Throws a usage error for an unknown run or a seq that is
 * not a fork point; nothing is written then, nor when `edit` throws.
 */
export async function createFork(stateDir: string, request: ForkRequest): Promise<CreatedFork> {
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
  const writer = await openJournal(runPaths(stateDir, runId).dir, { fresh: true });
  for (const event of forked) writer.subscriber(event);
  await writer.close();
  if (writer.failure !== undefined) throw writer.failure;
  return {
    parentRunId,
    point,
    edited: edited !== undefined,
    state: restoreFromJournal(runId, forked),
  };
}
