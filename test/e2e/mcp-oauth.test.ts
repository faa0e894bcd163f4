/**
 * Issue 29 item 1 through the real CLI: `sortie mcp status`, `sortie mcp login` with the
 * browser step driven by $BROWSER (a script that follows the authorization URL with a GET),
 * a run whose agent calls the OAuth-protected server's tools, `sortie mcp logout`, and a run
 * without a login that names the command. No token byte in any output, journal or cassette.
 */
import { chmod, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startOAuthServers, type OAuthServers } from '../fixtures/mcp/oauth-servers.mjs';
import {
  call,
  cleanUpAll,
  delegatingTask,
  errorText,
  filesBelow,
  leakForms,
  reply,
  startModelServer,
  writeProject,
} from './agent-tools-harness.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';
import { sortieAsync, type ChildResult } from './cli-child.ts';
import { modelArgs, workerProject, WORKER as AGENT } from './cli-mcp-harness.ts';

afterEach(cleanUpAll);

/** A "browser" that follows the URL it is given and notes it in `opened`. */
const BROWSER_SCRIPT = `#!/usr/bin/env node
import { appendFileSync } from 'node:fs';
appendFileSync(process.env.OPENED_FILE, process.argv[2] + '\\n');
const response = await fetch(process.argv[2]);
await response.text();
`;

async function oauthServers(): Promise<OAuthServers> {
  const servers = await startOAuthServers();
  afterEach(() => servers.close());
  return servers;
}

describe('sortie mcp login, status and logout', () => {
  it('logs in through the browser, lets a run use the server, logs out, and never writes a token', async () => {
    const at = await oauthServers();
    const dir = await temporaryDirectory('mcp-oauth');
    const browser = join(dir, 'browser.mjs');
    await writeFile(browser, BROWSER_SCRIPT);
    await chmod(browser, 0o755);
    const env = {
      SORTIE_HOME: undefined,
      XDG_STATE_HOME: join(dir, 'home'),
      BROWSER: browser,
      OPENED_FILE: join(dir, 'opened'),
    };
    const authDir = join(dir, 'home', 'sortie', 'mcp-auth');
    const project = await writeProject(
      workerProject(`mcp "docs" {\n  url = "${at.url}"\n}\n`, '[mcp.docs.all]'),
    );
    const cli = (args: string[]): Promise<ChildResult> => sortieAsync(args, env);
    const outputs: ChildResult[] = [];

    const before = await cli(['mcp', 'status', project]);
    expect(before).toEqual({
      status: 0,
      stdout: `NAME  LOCATION${' '.repeat(at.url.length - 8)}  AUTH           EXPIRES\ndocs  ${at.url}  not logged in  -\n`,
      stderr: '',
    });

    const login = await cli(['mcp', 'login', 'docs', project]);
    outputs.push(login);
    const opened = (await readFile(env.OPENED_FILE, 'utf8')).trim();
    expect(login.stderr).toBe('');
    expect(login.status).toBe(0);
    expect(login.stdout).toMatch(
      new RegExp(
        `^Checking mcp "docs" at ${at.url} \\.\\.\\.\\nOpen this URL to log in:\\n  ${escape(opened)}\\n` +
          'Waiting for the browser to come back \\.\\.\\.\\n' +
          `Logged in to mcp "docs" \\(3 tools, scope "mcp:tools", expires \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z\\); saved in ${escape(authDir)}\\n$`,
      ),
    );
    expect(new URL(opened).origin).toBe(new URL(at.issuer).origin);
    const files = (await filesBelow(authDir)).map((file) => file.path);
    expect(files).toHaveLength(1);
    expect((await stat(files[0]!)).mode & 0o777).toBe(0o600);

    const status = await cli(['mcp', 'status', project]);
    expect(status.stdout).toMatch(/\ndocs {2}\S+ {2}logged in {2}\d{4}-\d\d-\d\dT[\d:.]+Z\n$/);

    const model = await startModelServer(
      delegatingTask(
        'work',
        'worker',
        [
          call(AGENT, 'mcp_docs_whoami', {}),
          call(AGENT, 'mcp_docs_token', {}, { lastMessageContains: 'with mcp:tools' }),
          reply(AGENT, 'Both answered.'),
        ],
        'Worked',
      ),
    );
    const cassette = join(dir, 'cassette.jsonl');
    const stateDir = join(dir, 'state');
    const run = await cli([
      'run',
      project,
      '--json',
      '--record',
      cassette,
      ...modelArgs(model, stateDir),
    ]);
    outputs.push(run);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    model.assertDone();

    const logout = await cli(['mcp', 'logout', 'docs', project]);
    expect(logout).toEqual({
      status: 0,
      stdout: `Logged out of mcp "docs" (${at.url}).\n`,
      stderr: '',
    });
    expect(await filesBelow(authDir)).toEqual([]);

    const without = await cli([
      'run',
      project,
      '--json',
      ...modelArgs(
        await startModelServer([
          call('commander:work', 'set_subtasks', { subtasks: ['Do it'] }),
          call('commander:work', 'call_agent', { name: 'worker', task: 'work on work' }),
        ]),
        join(dir, 'state-2'),
      ),
    ]);
    outputs.push(without);
    expect(without.status).toBe(1);
    // The commander is told why its agent could not work, naming the command.
    const refusal = errorText(
      'agent "worker" failed: mcp "docs": needs a login: none is stored; run `sortie mcp login docs`',
    );
    expect(without.stdout).toContain(JSON.stringify(refusal).slice(1, -1));

    const written = [
      ...outputs.flatMap((output, index) => [
        { path: `output ${index}`, text: output.stdout + output.stderr },
      ]),
      { path: 'cassette', text: await readFile(cassette, 'latin1') },
      {
        path: 'model requests',
        text: JSON.stringify(model.requests.map((request) => request.body)),
      },
      ...(await filesBelow(stateDir)),
      ...(await filesBelow(join(dir, 'state-2'))),
    ];
    expect(at.issued.length).toBeGreaterThan(1);
    for (const token of at.issued) {
      for (const file of written) {
        for (const form of leakForms(token)) {
          expect({ path: file.path, leaked: file.text.includes(form) }).toEqual({
            path: file.path,
            leaked: false,
          });
        }
      }
    }
  }, 120_000);
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
