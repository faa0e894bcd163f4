/**
 * `source = "npm:PACKAGE"`: the package is installed once into `<cache>/npm/PACKAGE/VERSION/`
 * with the npm on PATH (so the user's npm configuration — registry, proxy, retries — applies)
 * and run with the node running sortie. An install goes to a temporary folder that is renamed
 * into place, so a crash or a concurrent run never leaves a half-installed cache entry.
 */
import { spawn } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { installOnce, type InstalledServer } from './install-cache.ts';
import { McpStartError } from './mcp-errors.ts';
import type { McpNpmSpec } from './mcp-spec.ts';
import { reasonOf } from '../../base/reason.ts';

/** The cache folder of one package version. */
export function npmCacheDirectory(cacheRoot: string, packageName: string, version: string): string {
  return join(cacheRoot, 'npm', ...packageName.split('/'), version);
}

/** Installs the package at its version unless the cache has it; returns its bin entry. */
export function installNpmPackage(
  spec: McpNpmSpec,
  cacheRoot: string,
  signal?: AbortSignal,
): Promise<InstalledServer> {
  const { name: server, package: packageName, version } = spec;
  const target = npmCacheDirectory(cacheRoot, packageName, version);
  return installOnce(target, async (folder) => {
    await runNpmInstall(server, folder, `${packageName}@${version}`, signal);
    return binEntry(server, join(folder, 'node_modules', packageName), packageName);
  });
}

/**
 * The script `bin` names: a string bin, else the entry named like the package (without its
 * scope), else the first name in sorted order — the reference runtime's choice, so the same
 * package starts the same program.
 */
export async function binEntry(
  server: string,
  packageFolder: string,
  packageName: string,
): Promise<string> {
  let manifest: { bin?: unknown };
  try {
    manifest = JSON.parse(await readFile(join(packageFolder, 'package.json'), 'utf8')) as {
      bin?: unknown;
    };
  } catch {
    throw new McpStartError(server, `npm package ${packageName} has no readable package.json`);
  }
  const bin = manifest.bin;
  if (typeof bin === 'string' && bin !== '') return join(packageFolder, bin);
  if (typeof bin === 'object' && bin !== null) {
    const entries = bin as Record<string, unknown>;
    const bare = packageName.slice(packageName.lastIndexOf('/') + 1);
    const names = Object.keys(entries).sort();
    const chosen = Object.hasOwn(entries, bare) ? bare : names[0];
    const path = chosen === undefined ? undefined : entries[chosen];
    if (typeof path === 'string' && path !== '') return join(packageFolder, path);
  }
  throw new McpStartError(
    server,
    `npm package ${packageName} has no bin entry, so it cannot be started as an MCP server`,
  );
}

/** `npm install --prefix FOLDER SPEC`; a failure names the package and says why in one line. */
async function runNpmInstall(
  server: string,
  folder: string,
  spec: string,
  signal: AbortSignal | undefined,
): Promise<void> {
  await mkdir(dirname(folder), { recursive: true });
  const args = ['install', '--prefix', folder, '--no-save', '--no-package-lock'];
  args.push('--no-audit', '--no-fund', '--loglevel=error', spec);
  const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>(
    (resolve, reject) => {
      const child = spawn('npm', args, {
        stdio: ['ignore', 'ignore', 'pipe'],
        ...(signal !== undefined ? { signal } : {}),
      });
      let stderr = '';
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (chunk: string) => {
        // npm's log can be long; the reason is in its first lines.
        if (stderr.length < 20_000) stderr += chunk;
      });
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stderr }));
    },
  ).catch((error: unknown) => {
    if (signal?.aborted === true) throw error;
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    throw new McpStartError(
      server,
      missing
        ? `npm is not on PATH: install Node.js with npm to use source = "npm:${spec}"`
        : `could not run npm: ${reasonOf(error)}`,
    );
  });
  if (code !== 0) throw new McpStartError(server, npmFailure(spec, stderr));
}

const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'ECONNRESET']);

/** npm's error output as one sentence naming the package. */
export function npmFailure(spec: string, stderr: string): string {
  const lines = stderr.split('\n').map((line) => line.replace(/^npm (error|ERR!) ?/, '').trim());
  const code = /^code (\S+)/m.exec(lines.join('\n'))?.[1];
  const fetchLine = lines.find((line) => /request to \S+ failed/.test(line));
  const head = `could not install npm package ${spec}`;
  if (code !== undefined && UNREACHABLE.has(code)) {
    const detail = fetchLine?.replace(/^\w*Error: /, '') ?? code;
    return `${head}: the npm registry could not be reached (${detail})`;
  }
  if (code === 'E404') return `${head}: the npm registry has no package by that name`;
  if (code === 'ETARGET') return `${head}: the npm registry has no version matching that`;
  const reason = lines.find(
    (line) => line !== '' && !line.startsWith('code ') && !/^npm warn/i.test(line),
  );
  return `${head}: npm install failed${reason !== undefined ? `: ${reason}` : ''}`;
}
