/** Shared setup of the MCP end-to-end tests: the project's `mcp` blocks and pid checks. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Protocol, ScriptedModelServer } from '../../src/testing/index.ts';

export const STDIO_SERVER = join(import.meta.dirname, '../fixtures/mcp/stdio-server.mjs');
export const FILESYSTEM_SERVER = join(
  import.meta.dirname,
  '../../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js',
);

/** `mcp "local"`: the stdio test server, started with `node`, logging its pids to `pidFile`. */
export function localServerBlock(pidFile: string, env: Record<string, string> = {}): string {
  const entries = Object.entries({ MCP_PID_FILE: `"${pidFile}"`, ...env })
    .map(([name, value]) => `    ${name} = ${value}`)
    .join('\n');
  return `mcp "local" {\n  command = "node"\n  args    = ["${STDIO_SERVER}"]\n  env = {\n${entries}\n  }\n}\n`;
}

/** The pids a test server appended to its pid file, in start order. */
export async function pidsIn(file: string): Promise<number[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map(Number);
}

/** True while the process exists and is not a zombie. */
export async function processAlive(pid: number): Promise<boolean> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** The agent of `workerProject`. */
export const WORKER = 'agent:work/worker';

/** The tool results of an OpenAI Responses request body, in order. */
export function outputsOf(body: unknown): unknown[] {
  const input = (body as { input: Array<{ type: string; output?: unknown }> }).input;
  return input.filter((item) => item.type === 'function_call_output').map((item) => item.output);
}

/**
 * A project of `servers` (its `mcp` blocks) and one agent, `worker`, with `tools`; the
 * commander of task "work" of mission "job" delegates to it.
 */
export function workerProject(servers: string, tools: string): string {
  return `${servers}
agent "worker" {
  model       = MODEL
  personality = "You use tools."
  tools       = ${tools}
}

mission "job" {
  commander {
    model = MODEL
  }
  agents = [agents.worker]
  task "work" {
    objective = "Do the work"
  }
}
`;
}

/** The CLI arguments pointing the project's model at the scripted `server`, state in `stateDir`. */
export function modelArgs(
  server: ScriptedModelServer,
  stateDir: string,
  provider: Protocol = 'openai',
): string[] {
  return [
    '--var',
    'api_key=test-key',
    '--var',
    `base_url=${server.baseUrl(provider)}`,
    '--state-dir',
    stateDir,
  ];
}
