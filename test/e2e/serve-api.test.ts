/**
 * `sortie serve` end to end: the built CLI on an ephemeral port, real HTTP through Node's fetch,
 * runs answered by the scripted model server. A webhook starts a run whose result is read back
 * through the API and its event stream; every bad request gets its JSON error; the protected
 * input never appears in any answer; a question to the person is answered through the inbox;
 * a stream resumes after `Last-Event-ID`.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScriptedModelServer } from '../../src/testing/index.ts';
import { builtCli } from './built-cli.ts';
import { outputsOf } from './cli-human-harness.ts';
import { sortieAsync } from './cli-child.ts';
import {
  api,
  greeting,
  HOOK_SECRET,
  PROTECTED_VALUE,
  readEvents,
  serveFreshProject,
  startServedModel,
  stopServe,
  type Served,
} from './serve-harness.ts';

let model: ScriptedModelServer;
let served: Served;
let stateDir: string;

beforeAll(async () => {
  await builtCli();
  model = await startServedModel();
  ({ served, stateDir } = await serveFreshProject(model));
}, 240_000);

afterAll(async () => {
  if (served !== undefined) await stopServe(served);
  await model?.close();
});

/** A webhook post with the right secret, another one, or none (null). */
const hook = (body: unknown, secret: string | null = HOOK_SECRET) =>
  api(served, 'POST', '/webhooks/hooks/greet', {
    body,
    headers: secret === null ? {} : { 'x-webhook-secret': secret },
  });

const isEnd = (event: Record<string, unknown>) => event.type === 'run.finished';

describe('sortie serve: webhooks', () => {
  it('prints the real port of --port 0 and answers health', async () => {
    expect(served.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(served.url.endsWith(':0')).toBe(false);
    const health = await api(served, 'GET', '/api/health');
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: 'ok', queued: 0 });
  });

  it('a webhook starts a run whose result the API reads back, its protected input masked', async () => {
    const posted = await hook({
      name: 'Ada',
      times: '2',
      token: PROTECTED_VALUE,
      note: { filename: 'note.txt', content_base64: Buffer.from('hi').toString('base64') },
    });
    expect(posted.status).toBe(202);
    const runId = String(posted.body.run_id);
    expect(posted.body).toEqual({ run_id: runId, status: 'running' });
    const events = await readEvents(served, runId, isEnd);
    const started = events.find(({ event }) => event.type === 'mission.started')?.event;
    expect(started?.inputs).toMatchObject({ name: 'Ada', times: 2, token: '••••' });
    expect(events.at(-1)?.event).toMatchObject({ type: 'run.finished', outcome: 'succeeded' });
    await served.line(new RegExp(`^run ${runId} succeeded`));
    const run = await api(served, 'GET', `/api/runs/${runId}`);
    expect(run.status).toBe(200);
    expect(run.body).toMatchObject({ run_id: runId, mission: 'greet', status: 'succeeded' });
    expect(run.body.tasks).toEqual([
      expect.objectContaining({
        name: 'hello',
        status: 'succeeded',
        summary: 'Greeted Ada',
        output: { text: greeting('Ada').replace(PROTECTED_VALUE, '••••') },
      }),
    ]);
    const everything = JSON.stringify([
      events,
      run.body,
      (await api(served, 'GET', '/api/runs')).body,
    ]);
    expect(everything).not.toContain(PROTECTED_VALUE);
    expect(served.lines.join('\n')).not.toContain(PROTECTED_VALUE);
    const listed = await api(served, 'GET', '/api/runs?mission=greet&status=succeeded');
    expect((listed.body.runs as Array<{ run_id: string }>).map((row) => row.run_id)).toContain(
      runId,
    );
    // A served run is an ordinary run: `sortie show` reads it.
    const show = await sortieAsync(['show', runId, '--state-dir', stateDir]);
    expect(show.status).toBe(0);
    expect(show.stdout).toContain('Greeted Ada');
  });

  it('refuses a wrong or missing secret with 401', async () => {
    for (const secret of ['wrong', null]) {
      const answer = await hook({ name: 'Ada' }, secret);
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({
        error: { code: 'wrong_secret', message: 'X-Webhook-Secret is missing or wrong' },
      });
    }
  });

  it('names each bad input with 400', async () => {
    const answer = await hook({ times: 'many', colour: 'red', note: '/etc/passwd' });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      error: {
        code: 'invalid_inputs',
        message: 'invalid inputs for mission "greet": times, colour, note, name',
        problems: [
          { input: 'times', message: 'expected a number' },
          { input: 'colour', message: 'mission "greet" has no input "colour"' },
          {
            input: 'note',
            message:
              'a file input takes {"filename", "content_base64"} or "base64:DATA[#FILENAME]"',
          },
          { input: 'name', message: 'is required' },
        ],
      },
    });
  });

  it('answers 413 over 1 MiB, 404 for an unknown path, 400 for a body that is not JSON', async () => {
    const big = await hook({ name: 'x'.repeat(1024 * 1024) });
    expect(big.status).toBe(413);
    expect(big.body).toEqual({
      error: { code: 'body_too_large', message: 'the request body is over 1 MiB' },
    });
    const unknown = await api(served, 'POST', '/webhooks/nope', { body: {} });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({
      error: { code: 'unknown_webhook', message: 'no trigger has the path "nope"' },
    });
    const notJson = await hook('{"name": ');
    expect(notJson.status).toBe(400);
    expect(notJson.body).toEqual({
      error: { code: 'invalid_json', message: 'the request body is not valid JSON' },
    });
  });
});

/** A GET with a Host header of our choosing (fetch does not let one set it). */
function getWithHost(url: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${url}/api/health`, { headers: { host } }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', reject);
    request.end();
  });
}

describe('sortie serve: the API', () => {
  it('refuses a Host header that is not the bound address (DNS rebinding) with 403', async () => {
    const port = new URL(served.url).port;
    const refused = await getWithHost(served.url, `evil.example:${port}`);
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body)).toEqual({
      error: {
        code: 'forbidden_host',
        message: 'the Host header does not name this server; use its own address',
      },
    });
    expect((await getWithHost(served.url, `localhost:${port}`)).status).toBe(200);
  });

  it('sends no CORS headers without --cors', async () => {
    const answer = await api(served, 'GET', '/api/health', {
      headers: { origin: 'https://elsewhere.example' },
    });
    expect(answer.headers.get('access-control-allow-origin')).toBe(null);
  });

  it('lists missions with their input schemas; 404 for an unknown mission or run', async () => {
    const missions = await api(served, 'GET', '/api/missions');
    const greet = (missions.body.missions as Array<Record<string, unknown>>)[0];
    expect(greet).toMatchObject({ name: 'greet', max_parallel: 1 });
    expect(greet?.inputs).toEqual([
      expect.objectContaining({ name: 'name', type: 'string', required: true }),
      expect.objectContaining({ name: 'times', type: 'number', required: false }),
      expect.objectContaining({ name: 'token', protected: true }),
      expect.objectContaining({ name: 'note', file: true }),
    ]);
    expect(JSON.stringify(missions.body)).not.toContain('"unset"');
    const unknown = await api(served, 'POST', '/api/missions/nope/runs', { body: {} });
    expect(unknown.body).toEqual({
      error: { code: 'unknown_mission', message: 'no mission "nope"' },
    });
    const noRun = await api(served, 'GET', '/api/runs/20260101T000000000Z-abcdef');
    expect(noRun.status).toBe(404);
  });

  it('a question is answered through the inbox; the event stream resumes after Last-Event-ID', async () => {
    const posted = await api(served, 'POST', '/api/missions/ask/runs', { body: { inputs: {} } });
    expect(posted.status).toBe(202);
    const runId = String(posted.body.run_id);
    const untilAsked = await readEvents(served, runId, (event) => event.type === 'human.asked');
    const questions = await api(served, 'GET', `/api/questions?run_id=${runId}`);
    const [question] = questions.body.questions as Array<Record<string, unknown>>;
    expect(question).toMatchObject({
      runId,
      mission: 'ask',
      actor: 'agent:decide/asker',
      question: 'Deploy to which region?',
      choices: ['eu', 'us'],
    });
    const wrong = await api(served, 'POST', `/api/questions/${String(question?.id)}/answer`, {
      body: { answer: 'narnia' },
    });
    expect(wrong.status).toBe(400);
    expect((wrong.body.error as { code: string }).code).toBe('invalid_answer');
    const answered = await api(served, 'POST', `/api/questions/${String(question?.id)}/answer`, {
      body: { answer: '1' },
    });
    expect(answered.body).toEqual({ answered: true });
    const lastId = String(untilAsked.at(-1)?.id);
    const rest = await readEvents(served, runId, isEnd, { 'last-event-id': lastId });
    expect(Number(rest[0]?.id)).toBe(Number(lastId) + 1);
    expect(rest.at(-1)?.event).toMatchObject({ type: 'run.finished', outcome: 'succeeded' });
    const whole = await readEvents(served, runId, isEnd);
    expect([...untilAsked, ...rest].map(({ id }) => id)).toEqual(whole.map(({ id }) => id));
    expect(rest.map(({ event }) => event)).toContainEqual(
      expect.objectContaining({ type: 'human.answered', answer: 'eu', how: 'person' }),
    );
    const asker = model.requests.filter((request) => request.actor === 'agent:decide/asker');
    expect(outputsOf(asker.at(-1)?.body)).toEqual(['eu']);
  });
});

describe('sortie serve --token', () => {
  let guarded: Served;
  const TOKEN = 'serve-token-8080';

  beforeAll(async () => {
    ({ served: guarded } = await serveFreshProject(model, [
      '--token',
      TOKEN,
      '--cors',
      'https://app.example',
    ]));
  }, 120_000);

  afterAll(async () => {
    if (guarded !== undefined) await stopServe(guarded);
  });

  it('answers no route without the token, and every route with it', async () => {
    for (const path of ['/api/health', '/api/runs', '/openapi.json']) {
      const headers: Array<Record<string, string>> = [
        {},
        { authorization: 'Bearer wrong' },
        { authorization: TOKEN },
      ];
      for (const header of headers) {
        const refused = await api(guarded, 'GET', path, { headers: header });
        expect(refused.status).toBe(401);
        expect(refused.body).toEqual({
          error: { code: 'unauthorized', message: 'send Authorization: Bearer <token>' },
        });
      }
    }
    const hookRefused = await api(guarded, 'POST', '/webhooks/hooks/greet', {
      body: { name: 'Bo' },
      headers: { 'x-webhook-secret': HOOK_SECRET },
    });
    expect(hookRefused.status).toBe(401);
    const bearer = { authorization: `Bearer ${TOKEN}`, origin: 'https://app.example' };
    const health = await api(guarded, 'GET', '/api/health', { headers: bearer });
    expect(health.status).toBe(200);
    expect(health.headers.get('access-control-allow-origin')).toBe('https://app.example');
    const document = await api(guarded, 'GET', '/openapi.json', { headers: bearer });
    expect(Object.keys(document.body.paths as object)).toContain('/webhooks/hooks/greet');
  });
});
