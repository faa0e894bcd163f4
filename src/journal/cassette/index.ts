/** Cassettes: record model turns of a run, replay them with no network. */
export { CASSETTE_VERSION, type Cassette, type CassetteEntry } from './cassette-format.ts';
export { loadCassette, type LoadedCassette } from './load.ts';
export { recordingClients } from './record.ts';
export { replayClients } from './replay-client.ts';
export { openCassetteWriter, writeCassette, type CassetteWriter } from './cassette-writer.ts';
