/**
 * No secret in a cassette or a journal, recorded or replayed (CLI). test/e2e/agent-tools-secrets
 * covers a protected input in an HTTP tool's header and the model key; this covers what it
 * does not: a secret *variable* sent in a custom HTTP tool's header and echoed back by the
 * service (so it reaches a tool result, the next model request and the cassette's request),
 * beside a protected input given to the tool as `${secrets.NAME}`, and the run replayed from
 * that cassette, whose tool runs again for real and whose live requests must still match.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
  type ReceivedRequest,
} from './agent-tools-harness.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';

/** Quotes, a backslash, a space and an ampersand: raw, JSON and URL forms all differ. */
const SERVICE_KEY = 'svc-"live" 7\\k&ey';
const PIN = 'pin-"9 8"\\7&6';
const MODEL_KEY = 'sk-test-replay-secrets';

const HCL = `
variable "service_key" {
  secret = true
}
variable "service_url" {}

tool "status" {
  implements  = builtins.http.get
  description = "The account's status"
  inputs = {
    pin = string("Account PIN", true)
  }
  url = "\${vars.service_url}/status"
  headers = {
    X-Service-Key = vars.service_key
  }
  query = {
    pin = inputs.pin
  }
}

agent "clerk" {
  model       = MODEL
  personality = "You check accounts."
  tools       = [tools.status]
}

mission "check" {
  commander {
    model = MODEL
  }
  agents = [agents.clerk]
  inputs = {
    pin = string("Account PIN", { protected = true })
  }
  task "check" {
    objective = "Check the account"
  }
}
`;

const AGENT = 'agent:check/clerk';

let recorded: CliResult;
let replayed: CliResult;
let received: ReceivedRequest[] = [];
/** What the model server received, the cassette, both `--json` outputs and every state file. */
let written: Array<{ path: string; text: string }> = [];

beforeAll(async () => {
  // The service echoes the key header and the query back, as a debugging endpoint might.
  const service = await startHttpServer((request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({ key: request.headers['x-service-key'], url: request.url, ok: true }),
    );
  });
  received = service.received;
  const directory = await temporaryDirectory('replay-secrets');
  const cassette = join(directory, 'cassette.jsonl');
  const stateDir = join(directory, 'state');
  const project = await writeProject(HCL);
  const server = await startModelServer(
    delegatingTask(
      'check',
      'clerk',
      [
        {
          match: { actor: AGENT },
          toolCalls: [{ name: 'tools_status', arguments: { pin: '${secrets.pin}' } }],
        },
        reply(AGENT, 'The account is fine.', { lastMessageContains: '"ok":true' }),
      ],
      'Checked',
    ),
  );
  const common = [
    '--input',
    `pin=${PIN}`,
    '--var',
    `service_key=${SERVICE_KEY}`,
    '--var',
    `service_url=${service.url}`,
    '--state-dir',
    stateDir,
    '--json',
  ];
  recorded = await sortie([
    'run',
    project,
    ...common,
    '--var',
    `api_key=${MODEL_KEY}`,
    '--var',
    `base_url=${server.baseUrl('openai')}`,
    '--record',
    cassette,
  ]);
  server.assertDone();
  const modelSaw = JSON.stringify(server.requests.map((request) => request.body));
  await server.close();
  replayed = await sortie(['run', project, ...common, '--replay-model', cassette]);
  written = [
    { path: 'model requests', text: modelSaw },
    { path: 'cassette', text: await readFile(cassette, 'utf8') },
    { path: 'recorded --json', text: recorded.stdout },
    { path: 'replayed --json', text: replayed.stdout },
    ...(await filesBelow(stateDir)),
  ];
}, 60_000);

afterAll(cleanUpAll);

/** Which of `forms` appear in which written file. */
function leaks(forms: string[]): Array<{ path: string; form: string }> {
  return written.flatMap((file) =>
    forms.filter((form) => file.text.includes(form)).map((form) => ({ path: file.path, form })),
  );
}

describe('secrets in a recorded and a replayed run (CLI)', () => {
  it('records and replays the run; the tool gets the real values both times', () => {
    expect(recorded.stderr).toBe('');
    expect(recorded.status).toBe(0);
    expect(replayed.stderr).toBe('');
    expect(replayed.status).toBe(0);
    expect(received).toHaveLength(2);
    for (const request of received) {
      expect(request.headers['x-service-key']).toBe(SERVICE_KEY);
      expect(new URL(request.url, 'http://service').searchParams.get('pin')).toBe(PIN);
    }
    expect(written.filter((file) => file.path.endsWith('journal.jsonl'))).toHaveLength(2);
  });

  it('writes the protected input, the model key and the raw secret variable nowhere', () => {
    expect(leaks([...leakForms(PIN), MODEL_KEY, SERVICE_KEY])).toEqual([]);
  });

  // A secret variable echoed inside a JSON tool result (escaped) or a URL (encoded) must be
  // masked in those forms too: the run's redactor covers raw, JSON-escaped and URL-encoded.
  it('writes no escaped or encoded form of the secret variable either', () => {
    expect(leaks(leakForms(SERVICE_KEY))).toEqual([]);
  });
});
