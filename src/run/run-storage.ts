/**
 * What a run does when the files recording it fail (a full disk, a file-size limit, a folder
 * that vanished): the first failure of the journal or the cassette stops the run — it is not
 * worth spending tokens on work nobody can resume or replay — and the command ends with a
 * usage error that names the file, the reason and how to continue.
 */
import { isAbsolute, relative } from 'node:path';
import { describeFileSystemError, isFileSystemError } from '../base/file-system-error.ts';
import { UsageError } from '../base/errors.ts';

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
  const message = reason instanceof Error ? reason.message : String(reason);
  return `cannot write ${path ?? 'a run file'}: ${message}`;
}

/** Where the run and its files are, for the `sortie resume` command to print. */
export interface ResumeLocation {
  /** The project root (absolute), printed relative to `cwd` when it is below it. */
  root: string;
  cwd: string;
  /** The state directory when `--state-dir` chose it (SORTIE_HOME and the default need nothing). */
  stateDirFlag: string | undefined;
}

/** `sortie resume RUN_ID [DIR] [--state-dir DIR]`, as the user would type it. */
export function resumeCommandFor(runId: string, location: ResumeLocation): string {
  const parts = ['sortie resume', runId];
  // Relative when the project is below the working directory, else as an absolute path.
  const below = relative(location.cwd, location.root);
  if (below !== '') parts.push(below.startsWith('..') || isAbsolute(below) ? location.root : below);
  if (location.stateDirFlag !== undefined) parts.push(`--state-dir ${location.stateDirFlag}`);
  return parts.join(' ');
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
