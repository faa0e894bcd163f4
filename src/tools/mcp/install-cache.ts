/**
 * The cache of installed MCP servers under the state directory (`<state>/mcp/`). Each install
 * is built in a temporary folder and renamed into place with a marker naming its entry, so a
 * crash or a concurrent run never leaves a half-installed folder that looks complete.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';

/** Written last into an install folder: its presence marks a complete install. */
const MARKER = 'sortie-mcp-install.json';

/** The program to start, inside the cache. */
export interface InstalledServer {
  entry: string;
}

/**
 * The install at `target`, building it with `build` when the cache does not have it yet.
 * `build` fills the folder it is given and returns the entry's path inside it.
 */
export async function installOnce(
  target: string,
  build: (folder: string) => Promise<string>,
): Promise<InstalledServer> {
  const cached = await readMarker(target);
  if (cached !== undefined) return cached;
  const temporary = `${target}.partial-${process.pid}-${randomBytes(4).toString('hex')}`;
  await mkdir(temporary, { recursive: true });
  try {
    const entry = await build(temporary);
    // Relative: the folder is renamed after the marker is written.
    await writeFile(join(temporary, MARKER), JSON.stringify({ entry: relative(temporary, entry) }));
    await rename(temporary, target).catch(async (error: unknown) => {
      // Another run finished the same install first: theirs is as good.
      if ((await readMarker(target)) === undefined) throw error;
    });
  } finally {
    await rm(temporary, { recursive: true, force: true });
  }
  const installed = await readMarker(target);
  if (installed === undefined) throw new Error(`the install in ${target} left no entry`);
  return installed;
}

async function readMarker(folder: string): Promise<InstalledServer | undefined> {
  try {
    const marker = JSON.parse(await readFile(join(folder, MARKER), 'utf8')) as { entry?: unknown };
    if (typeof marker.entry !== 'string') return undefined;
    const entry = join(folder, marker.entry);
    return (await stat(entry)).isFile() ? { entry } : undefined;
  } catch {
    return undefined;
  }
}
