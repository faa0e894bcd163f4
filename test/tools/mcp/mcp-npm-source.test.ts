/**
 * `source = "npm:PACKAGE"`: installed once from the registry npm is configured with (here a
 * loopback registry serving a package built by the test), then started from the cache with
 * node; an unreachable registry or a missing package is a clear error naming the package.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { McpPool } from '../../../src/tools/mcp/index.ts';
import { binEntry } from '../../../src/tools/mcp/npm-install.ts';
import {
  FIXTURE_PACKAGE,
  FIXTURE_VERSION,
  closedPort,
  packFixturePackage,
  startRegistry,
  type FixtureRegistry,
} from '../../fixtures/mcp/npm-registry.ts';
import { cleanUp, onCleanUp } from './mcp-harness.ts';
import { temporaryDirectory } from '../../helpers/temp-dir.ts';
import { mkdir, writeFile } from 'node:fs/promises';

const signal = new AbortController().signal;
const saved = { ...process.env };
let registry: FixtureRegistry;

beforeAll(async () => {
  const dir = await temporaryDirectory('mcp-pack');
  registry = await startRegistry(await packFixturePackage(dir));
  // npm reads its configuration from the environment sortie passes on.
  process.env.npm_config_cache = await temporaryDirectory('mcp-npm-cache');
  process.env.npm_config_fetch_retries = '0';
  process.env.npm_config_update_notifier = 'false';
});

afterEach(() => {
  process.env.npm_config_registry = saved.npm_config_registry;
  if (saved.npm_config_registry === undefined) delete process.env.npm_config_registry;
});

afterAll(async () => {
  await registry.close();
  await cleanUp();
  for (const name of [
    'npm_config_cache',
    'npm_config_fetch_retries',
    'npm_config_update_notifier',
  ]) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

function npmPool(cacheRoot: string, version = FIXTURE_VERSION): McpPool {
  const pool = McpPool.of(
    [
      {
        kind: 'npm',
        name: 'fixture',
        package: FIXTURE_PACKAGE,
        version,
        args: ['from npm'],
        env: {},
      },
    ],
    cacheRoot,
  );
  onCleanUp(() => pool.close());
  return pool;
}

describe('MCP servers from npm packages', () => {
  it('installs the package once into the cache and runs its bin with node and the args', async () => {
    process.env.npm_config_registry = registry.url;
    const cacheRoot = await temporaryDirectory('mcp-cache');
    const [shout] = await npmPool(cacheRoot).toolsFor(
      [{ server: 'fixture', tool: 'shout' }],
      signal,
    );
    expect(shout!.definition.name).toBe('mcp_fixture_shout');
    expect(await shout!.execute({ text: 'hello' }, { signal })).toEqual({
      content: 'HELLO from npm',
      isError: false,
    });
    expect(await readdir(join(cacheRoot, 'npm', FIXTURE_PACKAGE))).toEqual([FIXTURE_VERSION]);
    const fetched = registry.requests.length;
    // A second run with the same cache asks the registry nothing.
    const [again] = await npmPool(cacheRoot).toolsFor(
      [{ server: 'fixture', tool: 'shout' }],
      signal,
    );
    expect((await again!.execute({ text: 'again' }, { signal })).content).toBe('AGAIN from npm');
    expect(registry.requests.length).toBe(fetched);
  });

  it('names the package and the registry it could not reach', async () => {
    const port = await closedPort();
    process.env.npm_config_registry = `http://127.0.0.1:${port}/`;
    const pool = npmPool(await temporaryDirectory('mcp-cache'));
    await expect(pool.toolsFor([{ server: 'fixture' }], signal)).rejects.toThrow(
      `mcp "fixture": could not install npm package ${FIXTURE_PACKAGE}@${FIXTURE_VERSION}: the npm registry could not be reached ` +
        `(request to http://127.0.0.1:${port}/${FIXTURE_PACKAGE} failed, reason: connect ECONNREFUSED 127.0.0.1:${port})`,
    );
  });

  it('says when the registry has no such version', async () => {
    process.env.npm_config_registry = registry.url;
    const pool = npmPool(await temporaryDirectory('mcp-cache'), '9.9.9');
    await expect(pool.toolsFor([{ server: 'fixture' }], signal)).rejects.toThrow(
      `mcp "fixture": could not install npm package ${FIXTURE_PACKAGE}@9.9.9: the npm registry has no version matching that`,
    );
  });
});

describe('the bin entry of an npm package', () => {
  async function packageWith(bin: unknown): Promise<string> {
    const dir = await temporaryDirectory('mcp-bin');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'package.json'), JSON.stringify({ name: '@acme/tool', bin }));
    return dir;
  }

  it('takes a string bin, else the entry named like the package, else the first name in order', async () => {
    expect(await binEntry('s', await packageWith('cli.js'), '@acme/tool')).toMatch(/\/cli\.js$/);
    expect(
      await binEntry('s', await packageWith({ zed: 'z.js', tool: 't.js' }), '@acme/tool'),
    ).toMatch(/\/t\.js$/);
    expect(
      await binEntry('s', await packageWith({ zed: 'z.js', beta: 'b.js' }), '@acme/tool'),
    ).toMatch(/\/b\.js$/);
  });

  it('refuses a package without a bin', async () => {
    await expect(binEntry('s', await packageWith(undefined), '@acme/tool')).rejects.toThrow(
      'mcp "s": npm package @acme/tool has no bin entry, so it cannot be started as an MCP server',
    );
  });
});
