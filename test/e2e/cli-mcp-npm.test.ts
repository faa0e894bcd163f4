/**
 * `source = "npm:PACKAGE"` through the real CLI, without the internet: npm installs the package
 * from a loopback registry (a package the test packs) into the state directory once; the next
 * run starts it from there and asks the registry nothing; an unreachable registry fails the
 * run with a message naming the package.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sortieAsync } from './cli-child.ts';
import {
  FIXTURE_PACKAGE,
  FIXTURE_VERSION,
  closedPort,
  packFixturePackage,
  startRegistry,
} from '../fixtures/mcp/npm-registry.ts';
import {
  call,
  cleanUpAll,
  delegatingTask,
  jsonLines,
  reply,
  startModelServer,
  writeProject,
} from './agent-tools-harness.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';
import { modelArgs, workerProject, WORKER as AGENT } from './cli-mcp-harness.ts';

afterEach(cleanUpAll);

const PROJECT = workerProject(
  `mcp "fixture" {
  source  = "npm:${FIXTURE_PACKAGE}"
  version = "${FIXTURE_VERSION}"
  args    = ["from npm"]
}
`,
  '[mcp.fixture.shout]',
);

describe('an npm: MCP source through the CLI', () => {
  it('installs the package once into the state directory and runs it from there', async () => {
    const dir = await temporaryDirectory('mcp-npm');
    const registry = await startRegistry(await packFixturePackage(dir));
    const projectDir = await writeProject(PROJECT);
    const stateDir = join(dir, 'state');
    const npmEnv = {
      npm_config_registry: registry.url,
      npm_config_cache: join(dir, 'npm-cache'),
      npm_config_fetch_retries: '0',
      npm_config_update_notifier: 'false',
    };
    const runOnce = async (text: string) => {
      const server = await startModelServer(
        delegatingTask(
          'work',
          'worker',
          [call(AGENT, 'mcp_fixture_shout', { text }), reply(AGENT, 'Shouted.')],
          'Shouted',
        ),
      );
      const run = await sortieAsync(
        ['run', projectDir, '--json', ...modelArgs(server, stateDir)],
        npmEnv,
      );
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      server.assertDone();
      return jsonLines(run.stdout)
        .filter((event) => event.type === 'tool.completed' && event.actor === AGENT)
        .map((event) => event.result);
    };
    expect(await runOnce('hello')).toEqual(['HELLO from npm']);
    expect(await readdir(join(stateDir, 'mcp', 'npm', FIXTURE_PACKAGE))).toEqual([FIXTURE_VERSION]);
    const asked = registry.requests.length;
    expect(asked).toBeGreaterThan(0);
    await registry.close();
    // The registry is gone: the second run starts the installed copy.
    expect(await runOnce('again')).toEqual(['AGAIN from npm']);
    expect(registry.requests.length).toBe(asked);
  }, 120_000);

  it('fails the run before any model request when the registry cannot be reached', async () => {
    const dir = await temporaryDirectory('mcp-npm-offline');
    const server = await startModelServer([]);
    const run = await sortieAsync(
      ['run', await writeProject(PROJECT), '--json', ...modelArgs(server, join(dir, 'state'))],
      {
        npm_config_registry: `http://127.0.0.1:${await closedPort()}/`,
        npm_config_cache: join(dir, 'npm-cache'),
        npm_config_fetch_retries: '0',
        npm_config_update_notifier: 'false',
      },
    );
    expect(server.requests).toEqual([]);
    expect(run.status).toBe(1);
    const failed = jsonLines(run.stdout).find((event) => event.type === 'mission.failed');
    expect(JSON.stringify(failed)).toContain(
      JSON.stringify(
        `mcp "fixture": could not install npm package ${FIXTURE_PACKAGE}@${FIXTURE_VERSION}: the npm registry could not be reached`,
      ).slice(1, -1),
    );
  }, 60_000);
});
