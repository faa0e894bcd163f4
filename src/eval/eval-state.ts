/**
 * An eval's state file (`STATE_DIR/evals/NAME.jsonl`): which runs of this very eval (the same
 * definition, project files and flags: its fingerprint) have finished, so that the same
 * command after a crash or a kill goes on with the rest. Removed once the eval has finished.
 */
import { createHash } from 'node:crypto';
import { appendFile, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeDirectory } from '../base/make-directory.ts';

/** The runs a state file says are finished: slot key → run id. */
export type FinishedRuns = Map<string, string>;

/** An eval's state on disk. */
export class EvalState {
  private constructor(
    readonly path: string,
    readonly finished: FinishedRuns,
  ) {}

  /**
   * Opens the state of the eval with this fingerprint: the runs a killed earlier attempt
   * finished, or a fresh file when there was none or it belonged to a different eval.
   */
  static async open(stateDir: string, name: string, fingerprint: string): Promise<EvalState> {
    const folder = join(stateDir, 'evals');
    await makeDirectory(folder);
    const path = join(folder, `${name}.jsonl`);
    const finished = await readFinished(path, fingerprint);
    if (finished === undefined) {
      await writeFile(path, `${JSON.stringify({ fingerprint })}\n`);
      return new EvalState(path, new Map());
    }
    return new EvalState(path, finished);
  }

  /** Records a finished run (one appended line: a torn last line is ignored when read). */
  async add(slot: string, runId: string): Promise<void> {
    this.finished.set(slot, runId);
    await appendFile(this.path, `${JSON.stringify({ slot, runId })}\n`);
  }

  /** Forgets the eval: it finished, and the same command later starts afresh. */
  async remove(): Promise<void> {
    await rm(this.path, { force: true });
  }
}

/** A fingerprint of everything that decides an eval's runs. */
export function evalFingerprint(parts: readonly unknown[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

async function readFinished(path: string, fingerprint: string): Promise<FinishedRuns | undefined> {
  const text = await readFile(path, 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  const [header, ...lines] = text.split('\n');
  if (parse(header)?.fingerprint !== fingerprint) return undefined;
  const finished: FinishedRuns = new Map();
  for (const line of lines) {
    const entry = parse(line);
    if (typeof entry?.slot === 'string' && typeof entry.runId === 'string') {
      finished.set(entry.slot, entry.runId);
    }
  }
  return finished;
}

function parse(line: string | undefined): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(line ?? '');
    return typeof value === 'object' && value !== null
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
