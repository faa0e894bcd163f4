import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { resolveStateDir } from '../journal/paths.ts';
import type { CliIo } from './io.ts';

/**
 * The state directory for commands that read runs without loading the project: `--state-dir`,
 * then `SORTIE_HOME`, then `.sortie/` of DIR (of its folder when DIR is an .hcl file).
 */
export function stateDirFor(directory: string, stateDir: string | undefined, io: CliIo): string {
  const absolute = resolve(directory);
  const projectRoot = isFile(absolute) ? dirname(absolute) : absolute;
  return resolveStateDir({ stateDir, env: io.env, projectRoot });
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
