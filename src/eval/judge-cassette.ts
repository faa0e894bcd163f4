/**
 * The judge's model requests in a run's cassette: under `--record` the judge of a run asks
 * through a recorder and its turns are added to the run's own cassette (actor `judge`), so
 * `--replay-model` answers the judge from the same file and a recorded eval reproduces its
 * verdicts and judge spend offline.
 */
import { rename } from 'node:fs/promises';
import type { Redactor } from '../base/redact.ts';
import {
  CASSETTE_VERSION,
  loadCassette,
  recordingClients,
  replayClients,
  writeCassette,
  type CassetteEntry,
  type CassetteWriter,
  type LoadedCassette,
} from '../journal/cassette/index.ts';
import { CassetteNotFoundError } from '../journal/journal-errors.ts';
import type { ModelClientFactory } from '../models/create-client.ts';
import { defaultModelClients } from '../run/run-services.ts';
import { JUDGE_ACTOR } from './scorers/judge.ts';

/** The clients one run's judges ask, and what to do once they have answered. */
export interface JudgeClients {
  /** Undefined: the judge's own (the project's models). */
  clients: ModelClientFactory | undefined;
  /** Adds the judge's recorded turns to the run's cassette (nothing unless recording). */
  save(): Promise<void>;
}

/** Where a run's judge answers from, given the run's cassette and how the eval answers. */
export interface JudgeCassetteChoice {
  /** The run's cassette being recorded. */
  record?: string;
  /** The run's cassette to answer from. */
  replayModel?: string;
  /** The eval's answering clients (a mock-model file's), when not the project's models. */
  answering?: ModelClientFactory;
  /** The run's redactor: the cassette holds redacted text, and live requests are compared so. */
  redact: Redactor;
}

/** The judge clients of one run. */
export async function judgeClients(choice: JudgeCassetteChoice): Promise<JudgeClients> {
  const { record, replayModel, answering, redact } = choice;
  if (replayModel !== undefined) {
    const cassette = await loadCassette(replayModel);
    return { clients: replayClients(cassette, { redact }), save: () => Promise.resolve() };
  }
  if (record === undefined) return { clients: answering, save: () => Promise.resolve() };
  const entries: CassetteEntry[] = [];
  const collector: CassetteWriter = {
    path: record,
    append: (entry) => void entries.push(entry),
    flush: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
  return {
    clients: recordingClients(answering ?? defaultModelClients, collector, redact),
    save: () => addJudgeTurns(record, entries, redact),
  };
}

/**
 * Rewrites the run's cassette with the judge's turns in place of any it held (a run scored
 * again after a crash is judged again). Written beside it and renamed, so a crash mid-write
 * never loses the run's own turns.
 */
async function addJudgeTurns(
  path: string,
  judged: readonly CassetteEntry[],
  redact: Redactor,
): Promise<void> {
  const existing = await loadCassette(path).catch((error: unknown): LoadedCassette | undefined => {
    if (error instanceof CassetteNotFoundError) return undefined;
    throw error;
  });
  const header = existing?.header ?? {
    cassette: CASSETTE_VERSION,
    note: 'recorded by sortie eval',
    created: new Date().toISOString(),
  };
  const entries = [
    ...(existing?.entries ?? []).filter((entry) => entry.actor !== JUDGE_ACTOR),
    ...judged,
  ];
  const partial = `${path}.partial`;
  await writeCassette(partial, { header, entries }, redact);
  await rename(partial, path);
}
