/**
 * Issue 5, through the real CLI: a secret variable and a protected input reach the HTTP
 * server a custom tool calls, yet appear nowhere sortie writes — not in `--json` or plain
 * output, the journal, the stored large results, nor a recorded cassette.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  cleanUpAll,
  delegatingTask,
  filesBelow,
  leakForms,
  reply,
  sortie,
  startHttpServer,
  startModelServer,
  writeProject,
  type CliResult,
} from './agent-tools-harness.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';

afterEach(cleanUpAll);

/** Quotes and a backslash, so the JSON-escaped form differs from the raw one. */
const API_KEY = 'sk-live-"var"-5ecr3t\\key';
const TOKEN = 'tok-"PROTECTED"\\9a8b7c';

const HCL = `
variable "api_url" {}

tool "lookup" {
  implements  = builtins.http.get
  description = "Look up the account"
  inputs = {
    token = string("Access token", true)
  }
  url     = "\${vars.api_url}/account"
  headers = {
    Authorization = "Bearer \${inputs.token}"
  }
  query = {
    key = inputs.token
  }
}

agent "clerk" {
  model       = MODEL
  personality = "You look things up."
  tools       = [tools.lookup]
}

mission "account" {
  commander {
    model = MODEL
  }
  agents = [agents.clerk]
  inputs = {
    token = string("Account token", { protected = true })
  }
  task "lookup" {
    objective = "Look up the account"
  }
}
`;

const AGENT = 'agent:lookup/clerk';

describe('secrets never leave the tool call (CLI)', () => {
  it('sends the real values to the server and writes them nowhere', async () => {
    // The server echoes what it got in a 25-item array, so the result is also intercepted
    // and stored in the run's results directory.
    const api = await startHttpServer((request, response) => {
      const echoed = { authorization: request.headers.authorization, url: request.url };
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(Array.from({ length: 25 }, (_, n) => ({ n, ...echoed }))));
    });
    const directory = await temporaryDirectory('secrets');
    const stateDir = join(directory, 'state');
    const cassette = join(directory, 'cassette.jsonl');
    const agentTurns = [
      {
        match: { actor: AGENT },
        toolCalls: [{ name: 'tools_lookup', arguments: { token: '${secrets.token}' } }],
      },
      reply(AGENT, 'The account is there.', { lastMessageContains: '"status":"partial"' }),
    ];
    const runWith = async (mode: string[]): Promise<CliResult> => {
      const server = await startModelServer(
        delegatingTask('lookup', 'clerk', agentTurns, 'Looked up'),
      );
      const run = await sortie([
        'run',
        await writeProject(HCL),
        ...mode,
        '--input',
        `token=${TOKEN}`,
        '--var',
        `api_key=${API_KEY}`,
        '--var',
        `base_url=${server.baseUrl('openai')}`,
        '--var',
        `api_url=${api.url}`,
        '--state-dir',
        stateDir,
      ]);
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      server.assertDone();
      // What the model saw of the tool result is masked too.
      const seen = JSON.stringify(server.requests.map((request) => request.body));
      for (const form of [...leakForms(TOKEN), ...leakForms(API_KEY)]) {
        expect(seen).not.toContain(form);
      }
      return run;
    };
    const jsonRun = await runWith(['--json', '--record', cassette]);
    const plainRun = await runWith(['--plain']);

    expect(api.received).toHaveLength(2);
    for (const request of api.received) {
      expect(request.headers.authorization).toBe(`Bearer ${TOKEN}`);
      expect(new URL(request.url, api.url).searchParams.get('key')).toBe(TOKEN);
    }

    const written = [
      { path: 'stdout --json', text: jsonRun.stdout },
      { path: 'stdout --plain', text: plainRun.stdout },
      { path: 'cassette', text: await readFile(cassette, 'latin1') },
      ...(await filesBelow(stateDir)),
    ];
    const paths = written.map((file) => file.path);
    expect(paths.filter((path) => path.endsWith('journal.jsonl'))).toHaveLength(2);
    expect(paths.filter((path) => /results[\\/]result_1\.json$/.test(path))).toHaveLength(2);
    for (const file of written) {
      for (const form of [...leakForms(TOKEN), ...leakForms(API_KEY)]) {
        expect({ path: file.path, leaked: file.text.includes(form) }).toEqual({
          path: file.path,
          leaked: false,
        });
      }
    }
  }, 60_000);
});
