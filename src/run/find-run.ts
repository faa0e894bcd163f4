import { UsageError } from '../base/errors.ts';
import { UnknownRunError } from '../journal/journal-errors.ts';
import { findRunId } from '../journal/paths.ts';

/**
 * The run id matching an id or unambiguous prefix; an unknown one is a usage error naming
 * the state directory searched (the usual cause is looking in the wrong project).
 */
export async function findRun(stateDir: string, idOrPrefix: string): Promise<string> {
  try {
    return await findRunId(stateDir, idOrPrefix);
  } catch (error) {
    if (error instanceof UnknownRunError && error.candidates.length === 0) {
      throw new UsageError(
        `no run "${idOrPrefix}" in ${stateDir}`,
        'list the runs with `sortie runs [DIR]`, or point --state-dir at the right place',
      );
    }
    throw error;
  }
}
