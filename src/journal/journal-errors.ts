/**
 * Errors of the journal and cassette files. Bad files and unknown run ids are usage errors
 * (the CLI prints the message and exits 2); a replay mismatch fails the model turn instead.
 */
import { SortieError, UsageError } from '../base/errors.ts';

/** A journal line in the middle of the file is not a journaled event (1-based `line`). */
export class CorruptJournalError extends UsageError {
  constructor(
    readonly path: string,
    readonly line: number,
    readonly detail: string,
  ) {
    super(
      `journal ${path} is corrupt at line ${line}: ${detail}`,
      'the file was edited or damaged; only a torn last line is repaired automatically',
    );
  }
}

/** No journal where one was expected. */
export class JournalNotFoundError extends UsageError {
  constructor(readonly path: string) {
    super(`no journal at ${path}`);
  }
}

/** No run, or several runs, match a run id (prefix). */
export class UnknownRunError extends UsageError {
  constructor(
    readonly runId: string,
    readonly candidates: string[],
  ) {
    super(
      candidates.length === 0
        ? `no run "${runId}" in this state directory`
        : `run id "${runId}" is ambiguous: it matches ${candidates.join(', ')}`,
      candidates.length === 0 ? 'list the runs with `sortie runs`' : 'type more of the id',
    );
  }
}

/** An event that cannot be written as JSON (a bigint or a cycle): a defect of its emitter. */
export class JournalEncodingError extends SortieError {
  constructor(
    readonly eventType: string,
    readonly seq: number,
    options?: { cause?: unknown },
  ) {
    super(`event ${eventType} #${seq} cannot be journaled as JSON`, options);
  }
}

/** An event arrived after the journal was closed. */
export class JournalClosedError extends SortieError {
  constructor(
    readonly path: string,
    readonly eventType: string,
  ) {
    super(`journal ${path} is closed; event ${eventType} was not written`);
  }
}

/** The cassette file does not exist or cannot be read. */
export class CassetteNotFoundError extends UsageError {
  constructor(readonly path: string) {
    super(`cassette not found: ${path}`, 'record one with `sortie run --record FILE`');
  }
}

/** `--replay-model` named a folder: the hint names the cassettes (`*.jsonl`) found in it. */
export class CassetteIsFolderError extends UsageError {
  constructor(
    readonly path: string,
    readonly cassettes: readonly string[],
  ) {
    super(
      `--replay-model needs a cassette file, and ${path} is a folder`,
      cassettes.length === 0
        ? 'record one with `sortie run --record FILE`'
        : cassettes.length === 1
          ? `its cassette: --replay-model ${cassettes[0]}`
          : `the cassettes in it: ${cassettes.join(', ')}`,
    );
  }
}

/** A cassette line is not valid (1-based `line`). */
export class CorruptCassetteError extends UsageError {
  constructor(
    readonly path: string,
    readonly line: number,
    readonly detail: string,
  ) {
    super(`cassette ${path} is corrupt at line ${line}: ${detail}`);
  }
}

/** A replayed request differs from the recorded one; `diff` shows the first differing region. */
export class CassetteMismatchError extends SortieError {
  constructor(
    readonly actor: string,
    readonly turn: number,
    readonly diff: string,
  ) {
    super(diff);
  }
}

/** The cassette holds no answer for this actor's turn. */
export class MissingCassetteTurnError extends SortieError {
  constructor(
    readonly actor: string,
    readonly turn: number,
    readonly recordedTurns: number,
  ) {
    super(
      recordedTurns === 0
        ? `the cassette has no turns for actor ${actor} (asked for turn ${turn})`
        : `the cassette has no turn ${turn} for actor ${actor}: it recorded ${recordedTurns} turn${recordedTurns === 1 ? '' : 's'} for it`,
    );
  }
}

/** An entry was appended after the cassette was closed. */
export class CassetteClosedError extends SortieError {
  constructor(readonly path: string) {
    super(`cassette ${path} is closed; the turn was not recorded`);
  }
}
