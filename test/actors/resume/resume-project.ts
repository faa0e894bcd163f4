/**
 * One resume test file's project: the scripted model server answering with the file's
 * `respond`, the project written into a temporary folder and loaded, and runs of its mission
 * with every event collected, so a test compares a run with its resumption from a cut journal.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunOptions, RunResult } from '../../../src/actors/contracts.ts';
import type { MissionEvent } from '../../../src/base/events.ts';
import { loadProject } from '../../../src/config/index.ts';
import { startRun } from '../../../src/run/start-run.ts';
import {
  ScriptedModelServer,
  type RespondRequest,
  type ScriptTurn,
} from '../../../src/testing/index.ts';
import { temporaryDirectory } from '../../helpers/temp-dir.ts';

/** The server and the runs of one resume test's project. */
export interface ResumeProject {
  server: ScriptedModelServer;
  /** Runs the mission with `options` (a run id, or a resume) to its end. */
  run(options: Partial<RunOptions>): Promise<{ result: RunResult; events: MissionEvent[] }>;
  /** `run`'s events alone. */
  events(options: Partial<RunOptions>): Promise<MissionEvent[]>;
}

/** Starts the server, writes `hcl` (with the model preamble's variables) as main.hcl and loads it. */
export async function startResumeProject(options: {
  name: string;
  hcl: string;
  respond: (request: RespondRequest) => ScriptTurn | undefined;
  mission?: string;
}): Promise<ResumeProject> {
  const server = await ScriptedModelServer.start({ respond: options.respond });
  const dir = await temporaryDirectory(options.name);
  await writeFile(join(dir, 'main.hcl'), options.hcl);
  const config = await loadProject(dir, {
    vars: { api_key: `sk-test-${options.name}`, base_url: server.baseUrl('openai') },
    env: {},
  });
  const run = async (runOptions: Partial<RunOptions>) => {
    const events: MissionEvent[] = [];
    const handle = startRun({
      config,
      mission: options.mission ?? 'm',
      inputs: {},
      stateDir: join(dir, '.sortie'),
      subscribers: [(event) => events.push(event)],
      ...runOptions,
    });
    return { result: await handle.done, events };
  };
  return { server, run, events: async (runOptions) => (await run(runOptions)).events };
}
