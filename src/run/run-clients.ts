/**
 * The model clients of a run: the real providers (default), a mock-model file answering in
 * process (`--mock-model`), either recorded into a cassette (`--record`), or a cassette
 * answering with no network (`--replay-model`).
 */
import type { ModelClientFactory } from '../models/create-client.ts';
import { defaultModelClients } from './run-services.ts';
import { describeFileSystemError, isFileSystemError } from '../base/file-system-error.ts';
import { UsageError } from '../base/errors.ts';
import {
  loadCassette,
  openCassetteWriter,
  recordingClients,
  replayClients,
} from '../journal/cassette/index.ts';
import type { Redactor } from '../base/redact.ts';
import { loadMockModel } from '../models/mock/mock-file.ts';
import { mockModelClients } from '../models/mock/mock-clients.ts';

/** The cassette flags of `sortie run`. */
export interface CassetteFlags {
  record?: string;
  replayModel?: string;
  replayLenient?: boolean;
  mockModel?: string;
}

/** The factory to give the run (undefined: the runtime's default) and what to close after it. */
export interface RunClients {
  clients: ModelClientFactory | undefined;
  /** Flushes and closes a cassette being recorded. */
  close(): Promise<void>;
}

/** Checks that the cassette flags fit together (before anything is loaded). */
export function checkCassetteFlags(flags: CassetteFlags): void {
  if (flags.record !== undefined && flags.replayModel !== undefined) {
    throw new UsageError('--record and --replay-model cannot be used together');
  }
  if (flags.mockModel !== undefined && flags.replayModel !== undefined) {
    throw new UsageError('--mock-model and --replay-model cannot be used together');
  }
  if (flags.replayLenient === true && flags.replayModel === undefined) {
    throw new UsageError('--replay-lenient only applies with --replay-model FILE');
  }
}

/**
 * Opens the cassette the flags name; `warn` receives lenient replay mismatches, `onFailure`
 * the first write error of a cassette being recorded (with its path). A cassette that cannot
 * be created is a usage error.
 */
export async function runClients(
  flags: CassetteFlags,
  redact: Redactor,
  warn: (message: string) => void,
  onFailure?: (error: unknown, path: string) => void,
): Promise<RunClients> {
  if (flags.replayModel !== undefined) {
    const cassette = await loadCassette(flags.replayModel);
    const clients = replayClients(cassette, {
      lenient: flags.replayLenient === true,
      onWarning: (message) => warn(message),
      redact,
    });
    return { clients, close: () => Promise.resolve() };
  }
  const answering =
    flags.mockModel === undefined
      ? undefined
      : mockModelClients(await loadMockModel(flags.mockModel));
  if (flags.record !== undefined) {
    const path = flags.record;
    const writer = await openCassetteWriter(path, {
      note:
        answering === undefined
          ? 'recorded by sortie run from real model responses'
          : `recorded by sortie run from the mock model ${flags.mockModel}`,
      redact,
      onFailure: (error) => onFailure?.(error, path),
    }).catch((error: unknown) => {
      if (!isFileSystemError(error)) throw error;
      throw new UsageError(`--record ${path}: ${describeFileSystemError(error)}`);
    });
    return {
      clients: recordingClients(answering ?? defaultModelClients, writer, redact),
      close: () => writer.close(),
    };
  }
  return { clients: answering, close: () => Promise.resolve() };
}
