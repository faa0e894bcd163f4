/**
 * `source = "github.com/OWNER/REPO"`: the release archive for this machine and its
 * checksums.txt, served here by a loopback server standing in for github.com
 * (`SORTIE_GITHUB_URL`); any failure is a clear start error naming the source, never a crash.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { McpPool } from '../../../src/tools/mcp/index.ts';
import { releaseAssetName } from '../../../src/tools/mcp/github-install.ts';
import { SERVER_SOURCE, closedPort } from '../../fixtures/mcp/npm-registry.ts';
import { cleanUp, onCleanUp } from './mcp-harness.ts';
import { temporaryDirectory } from '../../helpers/temp-dir.ts';

const signal = new AbortController().signal;
const saved = process.env.SORTIE_GITHUB_URL;
const ASSET = releaseAssetName('shouter');

afterEach(cleanUp);
afterAll(() => {
  if (saved === undefined) delete process.env.SORTIE_GITHUB_URL;
  else process.env.SORTIE_GITHUB_URL = saved;
});

/** A release archive holding one executable (`bin/shouter`) and a README. */
async function releaseArchive(): Promise<Buffer> {
  const dir = await temporaryDirectory('mcp-release');
  await mkdir(join(dir, 'content', 'bin'), { recursive: true });
  await writeFile(join(dir, 'content', 'bin', 'shouter'), SERVER_SOURCE);
  await chmod(join(dir, 'content', 'bin', 'shouter'), 0o755);
  await writeFile(join(dir, 'content', 'README.md'), '# shouter\n');
  await promisify(execFile)('tar', ['-czf', join(dir, ASSET), '-C', join(dir, 'content'), '.']);
  return readFile(join(dir, ASSET));
}

/** Serves `/acme/shouter/releases/download/v1.2.0/{checksums.txt,ASSET}`. */
async function startReleases(archive: Buffer, checksum: string): Promise<string> {
  const files: Record<string, Buffer> = {
    [`/acme/shouter/releases/download/v1.2.0/${ASSET}`]: archive,
    '/acme/shouter/releases/download/v1.2.0/checksums.txt': Buffer.from(`${checksum}  ${ASSET}\n`),
  };
  const server = createServer((request, response) => {
    const body = files[request.url ?? ''];
    if (body === undefined) response.writeHead(404).end('Not Found');
    else response.writeHead(200).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onCleanUp(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function githubPool(version = 'v1.2.0'): Promise<McpPool> {
  const pool = McpPool.of(
    [
      {
        kind: 'github',
        name: 'shouter',
        owner: 'acme',
        repo: 'shouter',
        version,
        args: ['via release'],
        env: {},
      },
    ],
    await temporaryDirectory('mcp-cache'),
  );
  onCleanUp(() => pool.close());
  return pool;
}

describe('MCP servers from GitHub releases', () => {
  it('downloads the archive for this machine, checks it and runs its one executable', async () => {
    const archive = await releaseArchive();
    process.env.SORTIE_GITHUB_URL = await startReleases(
      archive,
      createHash('sha256').update(archive).digest('hex'),
    );
    const [shout] = await (
      await githubPool()
    ).toolsFor([{ server: 'shouter', tool: 'shout' }], signal);
    expect(await shout!.execute({ text: 'hi' }, { signal })).toEqual({
      content: 'HI via release',
      isError: false,
    });
  });

  it('refuses an archive that does not match its checksum', async () => {
    const archive = await releaseArchive();
    process.env.SORTIE_GITHUB_URL = await startReleases(archive, '0'.repeat(64));
    const actual = createHash('sha256').update(archive).digest('hex');
    await expect((await githubPool()).toolsFor([{ server: 'shouter' }], signal)).rejects.toThrow(
      `mcp "shouter": could not install github.com/acme/shouter@v1.2.0: ${ASSET} does not match its checksum (got ${actual}, want ${'0'.repeat(64)})`,
    );
  });

  it('names the source and the reason when the release cannot be had', async () => {
    const archive = await releaseArchive();
    const base = await startReleases(archive, createHash('sha256').update(archive).digest('hex'));
    process.env.SORTIE_GITHUB_URL = base;
    await expect(
      (await githubPool('v9.9.9')).toolsFor([{ server: 'shouter' }], signal),
    ).rejects.toThrow(
      `mcp "shouter": could not install github.com/acme/shouter@v9.9.9: ${base}/acme/shouter/releases/download/v9.9.9/checksums.txt answered HTTP 404`,
    );
    const port = await closedPort();
    process.env.SORTIE_GITHUB_URL = `http://127.0.0.1:${port}`;
    await expect((await githubPool()).toolsFor([{ server: 'shouter' }], signal)).rejects.toThrow(
      `mcp "shouter": could not install github.com/acme/shouter@v1.2.0: http://127.0.0.1:${port}/acme/shouter/releases/download/v1.2.0/checksums.txt could not be reached (connect ECONNREFUSED 127.0.0.1:${port})`,
    );
  });
});
