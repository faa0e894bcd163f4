/**
 * What a run does when the files recording it fail (a full disk, a file-size limit, a folder
 * that vanished): the first failure of the journal or the cassette stops the run — it is not
 * worth spending tokens on work nobody can resume or replay — and the command ends with a
 * usage error that names the file, the reason and how to continue.
 */
import { describeFileSystemError, isFileSystemError } from '../base/file-system-error.ts';
import { UsageError } from '../base/errors.ts';
import { reasonOf } from '../base/reason.ts';

/** The run's journal or cassette could not be written; the run was stopped. */
export class RunStorageError extends UsageError {
  constructor(
    readonly runId: string,
    readonly path: string | undefined,
    readonly reason: unknown,
    resumeCommand: string,
  ) {
    super(
      `${describeFailure(reason, path)}; the run was stopped`,
      `make room (or fix the file), then continue the run with: ${resumeCommand}`,
    );
  }
}

function describeFailure(reason: unknown, path: string | undefined): string {
  if (isFileSystemError(reason)) return describeFileSystemError(reason, path);
  return `cannot write ${path ?? 'a run file'}: ${reasonOf(reason)}`;
}

/** How to stop a run, told why (the output shows it before the run's cancellation). */
export type StopRun = (why: string) => void;

/** Collects the first storage failure of a run and stops the run when it happens. */
export class StorageWatch {
  private first: { error: unknown; path: string | undefined } | undefined;
  private stopRun: StopRun | undefined;

  /** Pass to the journal and the cassette: the first failure is kept and stops the run. */
  readonly failed = (error: unknown, path?: string): void => {
    if (this.first !== undefined) return;
    this.first = { error, path };
    this.stop();
  };

  /** How to stop the run (once it exists); stops it at once if a failure came first. */
  attach(stopRun: StopRun): void {
    this.stopRun = stopRun;
    if (this.first !== undefined) this.stop();
  }

  private stop(): void {
    if (this.first === undefined) return;
    this.stopRun?.(`${describeFailure(this.first.error, this.first.path)}; stopping the run`);
  }

  /**
   * Closes the run's files (journal, cassette). A failure seen while closing counts like one
   * seen while writing; an error that is not a file-system error is thrown as is.
   */
  async close(closers: ReadonlyArray<() => Promise<void>>): Promise<void> {
    const outcomes = await Promise.allSettled(closers.map((close) => close()));
    for (const outcome of outcomes) {
      if (outcome.status === 'fulfilled') continue;
      if (!isFileSystemError(outcome.reason)) throw outcome.reason;
      this.failed(outcome.reason);
    }
  }

  /** Throws the RunStorageError of the first failure, if any. */
  throwIfFailed(runId: string, resumeCommand: string): void {
    if (this.first === undefined) return;
    throw new RunStorageError(runId, this.first.path, this.first.error, resumeCommand);
  }
}
