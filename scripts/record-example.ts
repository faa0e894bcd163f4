/**
 * Records `examples/hello/cassette.jsonl`: runs the hello mission through `startRun` with the
 * same recording wiring as `sortie run --record`, against the scripted model server (no
 * network, no key) and a hand-written script of turns. The cassette therefore holds scripted
 * turns, not real model output, and its header says so.
 *
 *   node_modules/.bin/tsx scripts/record-example.ts
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ModelClientFactory } from '../src/actors/contracts.ts';
import { createRunRedactor } from '../src/actors/run-redactor.ts';
import { defaultModelClients } from '../src/actors/run-services.ts';
import { startRun } from '../src/actors/start-run.ts';
import { loadProject } from '../src/config/load-project.ts';
import { openCassetteWriter, recordingClients } from '../src/journal/cassette/index.ts';
import { ScriptedModelServer, type ScriptTurn } from '../src/testing/index.ts';

const EXAMPLE = join(import.meta.dirname, '../examples/hello');
const CASSETTE = join(EXAMPLE, 'cassette.jsonl');
const NOTE =
  'scripted, not real model output: written by scripts/record-example.ts from a hand-written ' +
  'script of turns answered by the scripted model server (src/testing)';

const COMMANDER = 'commander:greet';
const GREETER = 'agent:greet/greeter';
const GREETING = 'Hello, world! It is good to have you here; may your day be bright and easy.';

/** The conversation: the commander plans, asks the greeter, completes its plan and the task. */
const TURNS: ScriptTurn[] = [
  {
    match: { actor: COMMANDER },
    toolCalls: [
      { name: 'set_subtasks', arguments: { subtasks: ['Ask the greeter for a greeting'] } },
    ],
    usage: { input: 1180, output: 24 },
  },
  {
    match: { actor: COMMANDER },
    toolCalls: [
      {
        name: 'call_agent',
        arguments: { name: 'greeter', task: 'Write a short, warm greeting for world.' },
      },
    ],
    usage: { input: 1230, output: 31, cacheRead: 1024 },
  },
  { match: { actor: GREETER }, text: GREETING, usage: { input: 96, output: 21 } },
  {
    match: { actor: COMMANDER },
    toolCalls: [{ name: 'complete_subtask', arguments: {} }],
    usage: { input: 300, output: 12, cacheRead: 1024 },
  },
  {
    match: { actor: COMMANDER },
    toolCalls: [
      { name: 'task_complete', arguments: { summary: `The greeter wrote: ${GREETING}` } },
    ],
    usage: { input: 340, output: 38, cacheRead: 1024 },
  },
];

const server = await ScriptedModelServer.start({ turns: TURNS });
const stateDir = await mkdtemp(join(tmpdir(), 'sortie-record-'));
try {
  const config = await loadProject(EXAMPLE, {
    vars: { openai_api_key: 'scripted-no-key' },
    env: {},
  });
  const mission = config.missions.get('hello');
  if (mission === undefined) throw new Error('examples/hello has no mission "hello"');
  const redact = createRunRedactor(config, [{ mission, inputs: {} }]);
  const writer = await openCassetteWriter(CASSETTE, { note: NOTE, redact });
  const toServer: ModelClientFactory = (model, hooks) =>
    defaultModelClients({ ...model, baseUrl: server.baseUrl('openai') }, hooks);
  const handle = startRun({
    config,
    mission: 'hello',
    inputs: {},
    stateDir,
    clients: recordingClients(toServer, writer, redact),
  });
  const result = await handle.done;
  await writer.close();
  server.assertDone();
  if (result.status !== 'succeeded') {
    throw new Error(`the scripted run ${result.status}: ${JSON.stringify(result.missions)}`);
  }
  process.stdout.write(`recorded ${TURNS.length} scripted turns to ${CASSETTE}\n`);
} finally {
  await server.close();
  await rm(stateDir, { recursive: true, force: true });
}
