/**
 * The cassettes of an eval's runs: `--record DIR` and `--replay-model DIR` name a folder, and
 * each run records into or replays from its own file, `DIR/VARIANT/CASE/REPEAT.jsonl`, which
 * holds the run's model turns and its judge's.
 */
import { dirname, join } from 'node:path';
import { makeDirectory } from '../base/make-directory.ts';
import type { EvalSlot } from './eval-plan.ts';

/** The folders of the eval's cassettes. */
export interface CassetteFolders {
  record?: string;
  replayModel?: string;
}

/** The cassette file of one run in a folder of cassettes. */
export function slotCassettePath(folder: string, slot: EvalSlot): string {
  return join(folder, slot.variant.name, slot.evalCase.name, `${slot.repeat}.jsonl`);
}

/** The cassette a run records into (its folder made) or replays from; none without either. */
export async function slotCassette(
  folders: CassetteFolders,
  slot: EvalSlot,
): Promise<{ record?: string; replayModel?: string }> {
  if (folders.record !== undefined) {
    const file = slotCassettePath(folders.record, slot);
    await makeDirectory(dirname(file));
    return { record: file };
  }
  if (folders.replayModel === undefined) return {};
  return { replayModel: slotCassettePath(folders.replayModel, slot) };
}
