/**
 * The runs a server has in flight, one empty file per run under `<state>/serve/in-flight/`:
 * made when the run starts, removed when it ends for good. A server killed mid-run leaves its
 * files behind, and the next server on the same state directory resumes those runs. A run the
 * server cancelled on its way down keeps its file too, so a restart carries it on.
 */
import { readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeDirectory } from '../base/make-directory.ts';
import { isMissing } from '../journal/paths.ts';

/** The folder of in-flight markers in a state directory. */
export function inFlightDirectory(stateDir: string): string {
  return join(stateDir, 'serve', 'in-flight');
}

/** The in-flight markers of one state directory. */
export class InFlightRuns {
  private readonly directory: string;

  constructor(stateDir: string) {
    this.directory = inFlightDirectory(stateDir);
  }

  /** Marks the run as in flight. */
  async add(runId: string): Promise<void> {
    await makeDirectory(this.directory);
    await writeFile(join(this.directory, runId), '');
  }

  /** The run ended for good (succeeded, failed, or cancelled through the API). */
  async remove(runId: string): Promise<void> {
    await rm(join(this.directory, runId), { force: true });
  }

  /** The runs left in flight, oldest first (run ids sort by start time). */
  async list(): Promise<string[]> {
    try {
      return (await readdir(this.directory)).sort();
    } catch (error) {
      if (isMissing(error)) return [];
      throw error;
    }
  }
}
