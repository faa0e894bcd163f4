import { readFileSync } from 'node:fs';

/**
 * sortie's version from its package.json, two folders up from this file both in the sources
 * (src/cli/) and in the build (dist/cli/).
 */
export function sortieVersion(): string {
  const text = readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
  const { version } = JSON.parse(text) as { version?: unknown };
  return typeof version === 'string' ? version : 'unknown';
}
