/**
 * Records one example's cassette: runs its mission through `startRun` with the same recording
 * wiring as `sortie run --record`, every model pointed at the scripted model server (no
 * network, no key), which answers from the example's hand-written script of turns.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ModelClientFactory } from '../src/models/create-client.ts';
import { createRunRedactor } from '../src/run/run-redactor.ts';
import { defaultModelClients } from '../src/run/run-services.ts';
import { startRun } from '../src/run/start-run.ts';
import { loadProject } from '../src/config/load-project.ts';
import { openCassetteWriter, recordingClients } from '../src/journal/cassette/index.ts';
import { ScriptedModelServer, type Protocol, type ScriptTurn } from '../src/testing/index.ts';

/** The note every scripted cassette's header carries. */
export const SCRIPTED_NOTE =
  'scripted, not real model output: written by scripts/record-example.ts from a hand-written ' +
  'script of turns answered by the scripted model server (src/testing)';

/** One example whose cassette is recorded from a script. */
export interface ExampleScript {
  /** The folder under examples/. */
  name: string;
  mission: string;
  /** Mission inputs, as the README's offline command passes them. */
  inputs: Record<string, unknown>;
  /** The secret variables the models need; any value works against the scripted server. */
  keyVariables: string[];
  turns: ScriptTurn[];
}

/** The scripted server's wire protocol for each provider the examples use. */
const PROTOCOL: Record<string, Protocol> = {
  openai: 'openai',
  anthropic: 'anthropic',
  gemini: 'gemini',
};

/**
 * Records `examples/<name>/cassette.jsonl` (or `cassette`); throws unless the run succeeds on
 * every scripted turn.
 */
export async function recordExample(
  example: ExampleScript,
  cassette = join(import.meta.dirname, '../examples', example.name, 'cassette.jsonl'),
): Promise<string> {
  const directory = join(import.meta.dirname, '../examples', example.name);
  const server = await ScriptedModelServer.start({ turns: example.turns });
  const stateDir = await mkdtemp(join(tmpdir(), 'sortie-record-'));
  try {
    const vars = Object.fromEntries(example.keyVariables.map((name) => [name, 'scripted-no-key']));
    const config = await loadProject(directory, { vars, env: {} });
    const mission = config.missions.get(example.mission);
    if (mission === undefined) {
      throw new Error(`examples/${example.name} has no mission "${example.mission}"`);
    }
    const redact = createRunRedactor(config, [{ mission, inputs: example.inputs }]);
    const writer = await openCassetteWriter(cassette, { note: SCRIPTED_NOTE, redact });
    const toServer: ModelClientFactory = (model, hooks) => {
      const protocol = PROTOCOL[model.provider];
      if (protocol === undefined) throw new Error(`no scripted protocol for ${model.provider}`);
      return defaultModelClients({ ...model, baseUrl: server.baseUrl(protocol) }, hooks);
    };
    const handle = startRun({
      config,
      mission: example.mission,
      inputs: example.inputs,
      stateDir,
      clients: recordingClients(toServer, writer, redact),
    });
    const result = await handle.done;
    await writer.close();
    server.assertDone();
    if (result.status !== 'succeeded') {
      throw new Error(`the scripted run ${result.status}: ${JSON.stringify(result.missions)}`);
    }
    return `recorded ${example.turns.length} scripted turns to ${cassette}`;
  } finally {
    await server.close();
    await rm(stateDir, { recursive: true, force: true });
  }
}
