/** The real CLI as a child process for the end-to-end tests: `node bin/sortie.js`. */
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '../..');

/** No colour, not a terminal (CI), no API key from the developer's environment. */
export const CLI_ENV: Record<string, string | undefined> = {
  NO_COLOR: '1',
  FORCE_COLOR: undefined,
  CI: '1',
  OPENAI_API_KEY: undefined,
  ANTHROPIC_API_KEY: undefined,
  GEMINI_API_KEY: undefined,
  GOOGLE_API_KEY: undefined,
};

/** What a finished child printed and how it exited. */
export interface ChildResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `node bin/sortie.js ARGS` to its end (the sources through tsx, as SORTIE_RUN_SOURCES
 * asks) with CLI_ENV; `env` adds to or (with undefined) removes from the environment; `cwd`
 * is the repository root unless given (a folder of a user's own).
 */
export function sortieSync(
  args: string[],
  env: Record<string, string | undefined> = {},
  cwd: string = ROOT,
): ChildResult {
  const result = spawnSync(process.execPath, [join(ROOT, 'bin/sortie.js'), ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, ...CLI_ENV, ...env },
    // A child that hangs (and may ignore SIGTERM) fails its test instead of blocking the suite.
    timeout: 60_000,
    killSignal: 'SIGKILL',
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * Runs a command to its end without blocking this process, which may be serving the scripted
 * model server or HTTP servers the child talks to (spawnSync would stop their event loop).
 */
export async function runChild(
  command: string,
  args: string[],
  env: Record<string, string | undefined> = {},
): Promise<ChildResult> {
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, ...CLI_ENV, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const status = await new Promise<number | null>((resolve) =>
    child.on('close', (code) => resolve(code)),
  );
  return { status, stdout, stderr };
}

/** `node bin/sortie.js ARGS` without blocking this process (see runChild). */
export function sortieAsync(
  args: string[],
  env: Record<string, string | undefined> = {},
): Promise<ChildResult> {
  return runChild(process.execPath, ['bin/sortie.js', ...args], env);
}
