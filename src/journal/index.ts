/**
 * Run state on disk: the state directory layout, the run journal (writer and reader), the
 * `runs` / `show` summaries, and model cassettes.
 */
export {
  STATE_DIRECTORY_ENV,
  STATE_DIRECTORY_NAME,
  JOURNAL_FILE_NAME,
  WRITER_PID_FILE_NAME,
  findRunId,
  listRunIds,
  memoryDirectory,
  missionMemoryDirectory,
  resolveStateDir,
  runPaths,
  runsDirectory,
  type RunPaths,
  type StateDirectorySources,
} from './paths.ts';
export {
  JOURNAL_FLUSH_INTERVAL_MS,
  encodeEvent,
  flushesAtOnce,
  openJournal,
  type JournalWriter,
  type OpenJournalOptions,
} from './writer.ts';
export { repairTornTail } from './repair.ts';
export { journalEvents, readJournal, type JournalContent } from './reader.ts';
export type { JsonLinesEnd } from './json-lines.ts';
export { unansweredToolCalls } from './conversations.ts';
export {
  missionToResume,
  restoreFromJournal,
  type MissionJournal,
  type RunJournalState,
} from './restore.ts';
export { journalWriterAlive, listRuns, loadRunSummary, type RunRow } from './runs.ts';
export {
  summarizeEventStream,
  summarizeRun,
  type ItemSummary,
  type MissionSummary,
  type ModelSpending,
  type RunStatus,
  type RunSummary,
  type Spending,
  type TaskSummary,
} from './summary.ts';
export {
  CassetteClosedError,
  CassetteMismatchError,
  CassetteNotFoundError,
  CorruptCassetteError,
  CorruptJournalError,
  JournalClosedError,
  JournalEncodingError,
  JournalNotFoundError,
  MissingCassetteTurnError,
  UnknownRunError,
} from './journal-errors.ts';
export * from './cassette/index.ts';
