/**
 * `source = "github.com/OWNER/REPO"` + `version`: the release asset `REPO_OS_ARCH.tar.gz` of
 * that tag (`.zip` on Windows) and the release's `checksums.txt`, as the reference runtime
 * publishes them; the archive is checked against its SHA-256, unpacked with the system's
 * `tar` into `<cache>/github/OWNER/REPO/VERSION/`, and its entry is `entry` or the one
 * executable file inside. `SORTIE_GITHUB_URL` replaces `https://github.com` (a mirror).
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmod, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { isAbsolute, join, normalize, relative, sep } from 'node:path';
import { transportFetch, type TransportResponse } from '../../base/http/index.ts';
import { installOnce, type InstalledServer } from './install-cache.ts';
import { McpStartError } from './mcp-errors.ts';
import type { McpGithubSpec } from './mcp-spec.ts';

const GO_OS: Partial<Record<NodeJS.Platform, string>> = { win32: 'windows' };
const GO_ARCH: Record<string, string> = { x64: 'amd64', ia32: '386' };

/** The release asset built for this machine, named as Go release tooling names it. */
export function releaseAssetName(repo: string): string {
  const os = GO_OS[process.platform] ?? process.platform;
  const arch = GO_ARCH[process.arch] ?? process.arch;
  return `${repo}_${os}_${arch}.${process.platform === 'win32' ? 'zip' : 'tar.gz'}`;
}

/** Downloads and unpacks the release unless the cache has it; returns its entry. */
export function installGithubRelease(
  spec: McpGithubSpec,
  cacheRoot: string,
  signal?: AbortSignal,
): Promise<InstalledServer> {
  const server = spec.name;
  const target = join(cacheRoot, 'github', spec.owner, spec.repo, spec.version);
  const base = (process.env.SORTIE_GITHUB_URL ?? 'https://github.com').replace(/\/+$/, '');
  const releaseUrl = `${base}/${spec.owner}/${spec.repo}/releases/download/${spec.version}`;
  const source = `github.com/${spec.owner}/${spec.repo}@${spec.version}`;
  const fail = (detail: string) =>
    new McpStartError(server, `could not install ${source}: ${detail}`);
  return installOnce(target, async (folder) => {
    const asset = releaseAssetName(spec.repo);
    const sums = (await download(`${releaseUrl}/checksums.txt`, fail, signal)).toString();
    const expected = sums
      .split('\n')
      .map((line) => line.trim().split(/\s+/))
      .find((fields) => fields.length === 2 && fields[1] === asset)?.[0];
    if (expected === undefined) throw fail(`the release's checksums.txt does not list ${asset}`);
    const archive = await download(`${releaseUrl}/${asset}`, fail, signal);
    const actual = createHash('sha256').update(archive).digest('hex');
    if (actual !== expected.toLowerCase()) {
      throw fail(`${asset} does not match its checksum (got ${actual}, want ${expected})`);
    }
    const archivePath = join(folder, asset);
    await writeFile(archivePath, archive);
    await unpack(archivePath, folder, fail);
    await rm(archivePath);
    return pickEntry(folder, spec.entry, fail);
  });
}

async function download(
  url: string,
  fail: (detail: string) => McpStartError,
  signal: AbortSignal | undefined,
): Promise<Buffer> {
  let response: TransportResponse;
  try {
    // Redirects are followed (a release asset is served from another host), as fetch does.
    response = await transportFetch(url, { signal });
  } catch (error) {
    if (signal?.aborted === true) throw error;
    const cause = error instanceof Error ? (error.cause as Error | undefined) : undefined;
    throw fail(`${url} could not be reached (${cause?.message ?? String(error)})`);
  }
  if (!response.ok) throw fail(`${url} answered HTTP ${response.status}`);
  return Buffer.from(await response.arrayBuffer());
}

function unpack(
  archive: string,
  folder: string,
  fail: (detail: string) => McpStartError,
): Promise<void> {
  const args = archive.endsWith('.zip') ? ['-xf', archive] : ['-xzf', archive];
  return new Promise((resolve, reject) => {
    const child = spawn('tar', [...args, '-C', folder], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', (error) => reject(fail(`tar could not be run: ${error.message}`)));
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(fail(`tar could not unpack it: ${stderr.trim()}`)),
    );
  });
}

/** `entry` inside the archive, or its one executable regular file. */
async function pickEntry(
  folder: string,
  entry: string | undefined,
  fail: (detail: string) => McpStartError,
): Promise<string> {
  if (entry !== undefined) {
    const clean = normalize(entry);
    if (isAbsolute(clean) || clean === '..' || clean.startsWith(`..${sep}`)) {
      throw fail(`entry "${entry}" must be a relative path inside the archive`);
    }
    const path = join(folder, clean);
    const stats = await stat(path).catch(() => undefined);
    if (stats === undefined) throw fail(`entry "${entry}" is not in the archive`);
    if (!stats.isFile()) throw fail(`entry "${entry}" is not a file`);
    if ((stats.mode & 0o111) === 0) await chmod(path, stats.mode | 0o755);
    return path;
  }
  const executables: string[] = [];
  for (const name of await readdir(folder, { recursive: true })) {
    const path = join(folder, name);
    const stats = await stat(path);
    if (stats.isFile() && (stats.mode & 0o111) !== 0) executables.push(path);
  }
  if (executables.length === 1) return executables[0] as string;
  if (executables.length === 0) {
    throw fail('the archive has no executable file: set entry = "PATH" to the program to run');
  }
  const names = executables.map((path) => relative(folder, path)).sort();
  throw fail(`the archive has several executables (${names.join(', ')}): set entry to one`);
}
