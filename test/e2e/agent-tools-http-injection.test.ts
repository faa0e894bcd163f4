/**
 * Issue 16, item 2, through the real CLI: a scripted agent puts `&`, `#`, `/`, `..` and
 * CR/LF into a custom HTTP tool's inputs. The local server shows what arrived: each input
 * stayed in its own query value or path segment, a `..` segment and a header line break
 * were refused before anything was sent, and the secret variable in the query arrived
 * whole yet appears nowhere sortie writes.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  cleanUpAll,
  delegatingTask,
  filesBelow,
  completedInCallOrder,
  jsonLines,
  leakForms,
  reply,
  sortie,
  startHttpServer,
  startModelServer,
  writeProject,
} from './agent-tools-harness.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';

afterEach(cleanUpAll);

/** `+`, `/`, `=` and `&` would each change the query if sent unencoded. */
const TOKEN = 'tok+/=&admin=1';

const HCL = `
variable "api_url" {}
variable "api_token" {
  secret = true
}

tool "lookup" {
  implements  = builtins.http.get
  description = "Search a user's records"
  inputs = {
    id   = string("User id", true)
    q    = string("Search text", true)
    note = string("A note for the audit log", { default = "none" })
  }
  url = "\${vars.api_url}/users/\${inputs.id}/search?q=\${inputs.q}&key=\${vars.api_token}"
  headers = {
    "X-Note" = "\${inputs.note}"
  }
}

agent "clerk" {
  model       = MODEL
  personality = "You look things up."
  tools       = [tools.lookup]
}

mission "records" {
  commander {
    model = MODEL
  }
  agents = [agents.clerk]
  task "lookup" {
    objective = "Look up the records"
  }
}
`;

const AGENT = 'agent:lookup/clerk';

const CALLS = [
  { id: '7', q: 'a&k=INJECTED' },
  { id: '7', q: 'a#fragment' },
  { id: '../admin', q: 'x' },
  { id: 'a/b?admin=1', q: 'x' },
  { id: '..', q: 'x' },
  { id: '7', q: 'x', note: 'hi\r\nX-Injected: 1' },
].map((args) => ({ name: 'tools_lookup', arguments: args }));

describe('custom HTTP tool values are encoded for where they go (CLI)', () => {
  it('keeps hostile inputs inside their query value or path segment, and refuses the rest', async () => {
    const api = await startHttpServer((request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ url: request.url }));
    });
    const server = await startModelServer(
      delegatingTask(
        'lookup',
        'clerk',
        [{ match: { actor: AGENT }, toolCalls: CALLS }, reply(AGENT, 'Looked up.')],
        'Looked up',
      ),
    );
    const stateDir = join(await temporaryDirectory('injection'), 'state');
    const run = await sortie([
      'run',
      await writeProject(HCL),
      '--json',
      '--var',
      'api_key=test-key',
      '--var',
      `base_url=${server.baseUrl('openai')}`,
      '--var',
      `api_url=${api.url}`,
      '--var',
      `api_token=${TOKEN}`,
      '--state-dir',
      stateDir,
    ]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    server.assertDone();

    const key = encodeURIComponent(TOKEN);
    expect(api.received.map((request) => request.url)).toEqual([
      `/users/7/search?q=a%26k%3DINJECTED&key=${key}`,
      `/users/7/search?q=a%23fragment&key=${key}`,
      `/users/..%2Fadmin/search?q=x&key=${key}`,
      `/users/a%2Fb%3Fadmin%3D1/search?q=x&key=${key}`,
    ]);
    const arrived = new URL(api.received[0]?.url ?? '', api.url);
    expect([...arrived.searchParams]).toEqual([
      ['q', 'a&k=INJECTED'],
      ['key', TOKEN],
    ]);
    expect(api.received.map((request) => request.headers['x-note'])).toEqual([
      'none',
      'none',
      'none',
      'none',
    ]);

    const results = completedInCallOrder(jsonLines(run.stdout))
      .filter((event) => event.actor === AGENT)
      .map((event) => JSON.parse(String(event.result)) as Record<string, unknown>);
    expect(results.slice(4)).toEqual([
      {
        status: 'error',
        error:
          'could not build the request: input "id" would make the URL path segment "..", which changes the path; pass a name, not "." or ".."',
      },
      {
        status: 'error',
        error:
          'could not build the request: input "note" goes into the header "X-Note" and contains a line break (CR or LF); header values must be one line',
      },
    ]);
    // The server echoed each URL, secret included: the model saw it masked.
    expect(results[0]).toEqual({
      status: 200,
      content_type: 'application/json',
      body: { url: '/users/7/search?q=a%26k%3DINJECTED&key=••••' },
    });
    const written = [{ path: 'stdout', text: run.stdout }, ...(await filesBelow(stateDir))];
    for (const file of written) {
      for (const form of leakForms(TOKEN)) {
        expect({ path: file.path, leaked: file.text.includes(form) }).toEqual({
          path: file.path,
          leaked: false,
        });
      }
    }
  }, 60_000);
});
