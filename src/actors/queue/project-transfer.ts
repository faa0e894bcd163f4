/**
 * The project travels with the run: every file under its root, content-addressed in Redis
 * (SHA-256 → content, stored once however many runs ship it) and a manifest per run; a worker
 * writes the files it lacks into a folder named by the manifest's hash and loads the project
 * from there. Left behind: `.git`, `node_modules`, the state directory (`.sortie`) and `.env*`
 * files, which hold local secrets.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import type { Redis } from 'ioredis';
import { SortieError } from '../../base/errors.ts';
import { blobKey, runKeys } from './queue-keys.ts';

const SKIPPED_FOLDERS = new Set(['.git', 'node_modules', '.sortie']);

/** The project's manifest: relative path (with `/`) → content hash. */
export type ProjectManifest = Record<string, string>;

/** A run's project is not in Redis (its keys were removed, or another Redis is used). */
export class MissingProjectError extends SortieError {}

function hashOf(content: Buffer | string): string {
  return createHash('sha256').update(content).digest('hex');
}

/** The files that travel, as paths relative to `root`. */
async function projectFiles(root: string, stateDir: string): Promise<string[]> {
  const files: string[] = [];
  const walk = async (folder: string): Promise<void> => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name) && path !== stateDir) await walk(path);
      } else if (entry.isFile() && !entry.name.startsWith('.env')) {
        files.push(relative(root, path).split(sep).join('/'));
      }
    }
  };
  await walk(root);
  return files.sort();
}

/** Stores the project's files (those Redis lacks) and the run's manifest. */
export async function uploadProject(
  redis: Redis,
  runId: string,
  root: string,
  stateDir: string,
): Promise<ProjectManifest> {
  const manifest: ProjectManifest = {};
  for (const path of await projectFiles(root, stateDir)) {
    const content = await readFile(join(root, path));
    const hash = hashOf(content);
    manifest[path] = hash;
    // NX: a file shipped by an earlier run is not sent again.
    if ((await redis.exists(blobKey(hash))) === 0) await redis.set(blobKey(hash), content, 'NX');
  }
  await redis.set(runKeys(runId).manifest, JSON.stringify(manifest));
  return manifest;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/**
 * The folder holding the run's project under `cacheRoot`, written on first use (into a
 * temporary folder renamed at the end, so a killed worker never leaves half a project).
 */
export async function downloadProject(
  redis: Redis,
  runId: string,
  cacheRoot: string,
): Promise<string> {
  const text = await redis.get(runKeys(runId).manifest);
  if (text === null) {
    throw new MissingProjectError(`run ${runId} has no project in this Redis (was it cleaned up?)`);
  }
  const folder = join(cacheRoot, hashOf(text));
  if (await exists(folder)) return folder;
  const manifest = JSON.parse(text) as ProjectManifest;
  const temporary = `${folder}.${process.pid}.${Date.now()}`;
  for (const [path, hash] of Object.entries(manifest)) {
    const content = await redis.getBuffer(blobKey(hash));
    if (content === null) throw new MissingProjectError(`run ${runId}: file ${path} is missing`);
    const target = join(temporary, path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, content);
  }
  await mkdir(temporary, { recursive: true });
  try {
    await rename(temporary, folder);
  } catch (error) {
    // Another worker process on this machine got there first: its copy is the same.
    await rm(temporary, { recursive: true, force: true });
    if (!(await exists(folder))) throw error;
  }
  return folder;
}
