/** The real CLI as a child process for the end-to-end usage tests: `node bin/sortie.js`. */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '../..');

/** What a finished `sortie` child printed and how it exited. */
export interface ChildResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `node bin/sortie.js ARGS` to its end (the sources through tsx, as SORTIE_RUN_SOURCES
 * asks), colour off and not on a terminal; `env` adds to or (with undefined) removes from the
 * environment.
 */
export function sortieSync(
  args: string[],
  env: Record<string, string | undefined> = {},
): ChildResult {
  const result = spawnSync(process.execPath, ['bin/sortie.js', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined, CI: '1', ...env },
    // A child that hangs (and may ignore SIGTERM) fails its test instead of blocking the suite.
    timeout: 60_000,
    killSignal: 'SIGKILL',
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
