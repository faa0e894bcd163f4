/**
 * `sortie serve` refuses what it must before it listens, and costs nothing to the other
 * commands: `sortie run` (the built CLI) loads none of src/serve/ nor its HTTP framework,
 * checked by a module hook recording every module the process resolves.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { builtBin, builtCli } from './built-cli.ts';
import { runChild } from './cli-child.ts';
import { serveProject } from './serve-harness.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';

let dir: string;
let bin: string[];

/** A `--import` module registering a hook that appends each resolved URL to SORTIE_LOADS_LOG. */
const RECORDER = `import { register } from 'node:module';
register(new URL('./hooks.mjs', import.meta.url));
`;
const HOOKS = `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  appendFileSync(process.env.SORTIE_LOADS_LOG, resolved.url + '\\n');
  return resolved;
}
`;

beforeAll(async () => {
  bin = builtBin(await builtCli());
  dir = await temporaryDirectory('serve-usage');
  await writeFile(join(dir, 'recorder.mjs'), RECORDER);
  await writeFile(join(dir, 'hooks.mjs'), HOOKS);
}, 240_000);

/** Runs the built CLI with the recorder; resolves with its result and the URLs it loaded. */
async function recorded(args: string[], name: string) {
  const log = join(dir, `${name}.log`);
  await writeFile(log, '');
  const result = await runChild(
    process.execPath,
    ['--import', join(dir, 'recorder.mjs'), ...bin, ...args],
    { SORTIE_LOADS_LOG: log },
  );
  const loaded = (await readFile(log, 'utf8')).split('\n').filter((url) => url !== '');
  return { result, loaded };
}

const serveCode = (url: string): boolean =>
  /\/dist\/serve\/|\/node_modules\/(hono|@hono)\//.test(url);

describe('sortie serve before it listens', () => {
  it('refuses a non-loopback address without a token: exit 2, a clear message', async () => {
    const { project } = await serveProject();
    const { result, loaded } = await recorded(
      ['serve', project, '--host', '0.0.0.0', '--port', '0'],
      'refused',
    );
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(
      'refusing to listen on 0.0.0.0 without a token: anyone who can reach it could start runs',
    );
    expect(result.stderr).toContain(
      '--token TOKEN (or SORTIE_SERVE_TOKEN), or listen on 127.0.0.1',
    );
    expect(result.stderr).not.toMatch(/\n\s+at /);
    // The recorder sees the service's modules when they load: the check below can fail.
    expect(loaded.some(serveCode)).toBe(true);
  });

  it('refuses an mcp_host without a secret on a non-loopback address, and --mcp-port without mcp_host', async () => {
    const { project } = await serveProject();
    const vars = ['--var', 'api_key=sk-test', '--var', 'base_url=http://127.0.0.1:9'];
    const serve = (...args: string[]) =>
      runChild(process.execPath, [...bin, 'serve', project, '--port', '0', ...vars, ...args]);
    const portOnly = await serve('--mcp-port', '0');
    expect(portOnly.status).toBe(2);
    expect(portOnly.stderr).toContain(
      '--mcp-port sets the MCP endpoint of an mcp_host block, and the project enables none',
    );
    await writeFile(join(project, 'mcp_host.hcl'), 'mcp_host {\n  enabled = true\n}\n');
    const open = await serve('--host', '0.0.0.0', '--token', 'api-token');
    expect(open.status).toBe(2);
    expect(open.stderr).toContain(
      'refusing to serve mcp_host on 0.0.0.0 without a secret: anyone who can reach it could start runs',
    );
    expect(open.stderr).toContain('set secret in the mcp_host block, or listen on 127.0.0.1');
    expect(open.stderr).not.toMatch(/\n\s+at /);
  });

  it('sortie run loads none of the service', async () => {
    const { result, loaded } = await recorded(
      [
        'run',
        'examples/hello',
        '--replay-model',
        'examples/hello/cassette.jsonl',
        '--state-dir',
        join(dir, 'state'),
        '--quiet',
      ],
      'run',
    );
    expect(result.status).toBe(0);
    expect(loaded.some((url) => url.includes('/dist/cli/run-command.js'))).toBe(true);
    expect(loaded.filter(serveCode)).toEqual([]);
  });
});
