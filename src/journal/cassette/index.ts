/** Cassettes: record model turns of a run, replay them with no network. */
export {
  CASSETTE_VERSION,
  NO_ACTOR,
  cassetteRequest,
  modelReference,
  type Cassette,
  type CassetteEntry,
  type CassetteHeader,
  type CassetteRequest,
} from './cassette-format.ts';
export { loadCassette, type LoadedCassette } from './load.ts';
export { recordingClients } from './record.ts';
export { replayClients, type ReplayOptions } from './replay-client.ts';
export { requestDiff, type ComparableRequest } from './diff.ts';
export {
  openCassetteWriter,
  redactedLine,
  writeCassette,
  type CassetteWriter,
  type CassetteWriterOptions,
} from './cassette-writer.ts';
