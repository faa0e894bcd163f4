/**
 * sortie as users get it: `npm pack`, the tarball installed into an empty project with no
 * network, then used there as a library (`sortie`, `sortie/testing`, from an ESM script and
 * from TypeScript) and as a CLI (the installed `sortie` bin, which has no sources and no tsx).
 */
import { execFile } from 'node:child_process';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLI_ENV, ROOT } from './cli-child.ts';
import { capitalProject } from '../run/capital-project.ts';
import { npm, packSortie, placeDependencies } from './package-install-harness.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';

const run = promisify(execFile);
// Packing builds the whole project (tsc), slow on a busy machine.
const SLOW = 600_000;

let scratch: string;
let app: string;

beforeAll(async () => {
  scratch = await temporaryDirectory('package');
  app = join(scratch, 'app');
  await mkdir(app);
  const tarball = await packSortie(scratch);
  await writeFile(
    join(app, 'package.json'),
    JSON.stringify({ name: 'app', private: true, type: 'module', dependencies: { zod: '^4' } }),
  );
  await placeDependencies(app, ['zod']);
  await npm(app, [
    'install',
    tarball,
    '--offline',
    '--cache',
    join(scratch, 'empty-cache'),
    '--omit=dev',
    '--no-package-lock',
    '--ignore-scripts',
    '--no-audit',
    '--no-fund',
  ]);
  await writeProject(join(app, 'project'), 'tools.lookup');
  await writeProject(join(app, 'plain'), '');
}, SLOW);

/** Runs a command in the installed project. */
async function inApp(command: string, args: string[]): Promise<string> {
  const { stdout } = await run(command, args, {
    cwd: app,
    env: { ...process.env, ...CLI_ENV, SORTIE_RUN_SOURCES: undefined },
  });
  return stdout;
}

async function writeProject(dir: string, agentTools: string): Promise<void> {
  await mkdir(dir);
  await writeFile(join(dir, 'main.hcl'), capitalProject(agentTools));
}

/** The installed package used from an ESM script: a zod tool, the scripted model server. */
const LIBRARY_SCRIPT = `
import { defineFunctionTool, openProject, runMission } from 'sortie';
import { ScriptedModelServer } from 'sortie/testing';
import { z } from 'zod';

const commander = { actor: 'commander:find' };
const server = await ScriptedModelServer.start({
  turns: [
    { match: commander, toolCalls: [{ name: 'set_subtasks', arguments: { subtasks: ['Look'] } }] },
    { match: commander, toolCalls: [{ name: 'call_agent', arguments: { name: 'clerk', task: 'Look' } }] },
    { match: { actor: 'agent:find/clerk' }, toolCalls: [{ name: 'tools_lookup', arguments: { country: 'France' } }] },
    { match: { actor: 'agent:find/clerk' }, text: 'Paris' },
    { match: commander, toolCalls: [{ name: 'complete_subtask', arguments: {} }] },
    { match: commander, toolCalls: [{ name: 'task_complete', arguments: { summary: 'Paris' } }] },
  ],
});
const lookup = defineFunctionTool({
  name: 'lookup',
  description: 'The capital of a country',
  input: z.object({ country: z.string() }),
  run: ({ country }) => ({ capital: country === 'France' ? 'Paris' : '?' }),
});
const project = await openProject('project', {
  vars: { api_key: 'test', base_url: server.baseUrl('openai'), token: 't' },
  env: {},
  tools: [lookup],
});
const mission = runMission(project, { inputs: { country: 'France' }, stateDir: 'state' });
const tools = [];
mission.subscribe((event) => {
  if (event.type === 'tool.completed' && event.tool === 'tools_lookup') tools.push(event.result);
});
const result = await mission.result;
server.assertDone();
await server.close();
console.log(JSON.stringify({ status: result.status, summary: result.tasks[0].summary, tools }));
`;

/** The same API from TypeScript: the types come from the package's .d.ts files. */
const TYPED_SCRIPT = `
import { defineFunctionTool, openProject, type MissionEvent } from 'sortie';
import { ScriptedModelServer } from 'sortie/testing';
import { z } from 'zod';

const lookup = defineFunctionTool({
  name: 'lookup',
  description: 'The capital of a country',
  input: z.object({ country: z.string() }),
  run: (input) => input.country.toUpperCase(),
});
const project = await openProject('project', { tools: [lookup] });
const ok: boolean = project.ok;
const kinds = (event: MissionEvent): string => event.type;
const start: typeof ScriptedModelServer.start = ScriptedModelServer.start;
export { ok, kinds, start };
`;

describe('the packed package, installed with no network', () => {
  it(
    'runs a mission from an ESM script with a zod tool against sortie/testing',
    async () => {
      await writeFile(join(app, 'library.mjs'), LIBRARY_SCRIPT);
      const printed = JSON.parse(await inApp(process.execPath, ['library.mjs'])) as unknown;
      expect(printed).toEqual({
        status: 'succeeded',
        summary: 'Paris',
        tools: ['{"capital":"Paris"}'],
      });
      expect(await readdir(join(app, 'state', 'runs'))).toHaveLength(1);
    },
    SLOW,
  );

  it(
    'type-checks a TypeScript program against its declarations',
    async () => {
      await writeFile(join(app, 'typed.ts'), TYPED_SCRIPT);
      await writeFile(
        join(app, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            module: 'NodeNext',
            target: 'ES2023',
            strict: true,
            noEmit: true,
            skipLibCheck: true,
            types: [],
          },
          files: ['typed.ts'],
        }),
      );
      const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
      await expect(inApp(process.execPath, [tsc, '-p', '.'])).resolves.toBe('');
    },
    SLOW,
  );

  it(
    'runs the installed sortie bin from its build',
    async () => {
      const bin = join('node_modules', '.bin', 'sortie');
      expect(await readdir(join(app, 'node_modules', 'sortie'))).toEqual([
        'README.md',
        'bin',
        'dist',
        'docs',
        'package.json',
      ]);
      expect(await inApp(bin, ['--version'])).toBe('0.1.0\n');
      expect(await inApp(bin, ['verify', 'plain'])).toBe(
        'ok: 1 mission, 1 task, 1 agent, 1 model used (models.main.gpt_4o_mini), 0 warnings\n',
      );
    },
    SLOW,
  );
});
