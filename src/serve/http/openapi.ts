/**
 * `GET /openapi.json`: the API described as OpenAPI 3.1, for clients and generators. The
 * webhook routes are listed from the project's `trigger` blocks.
 */
const ERROR = { $ref: '#/components/schemas/Error' };

function answer(description: string, schema: unknown = { type: 'object' }) {
  return { description, content: { 'application/json': { schema } } };
}

const errors = {
  '400': answer('bad request (each bad input named)', ERROR),
  '401': answer('missing or wrong bearer token', ERROR),
  '403': answer('the Host header does not name the server', ERROR),
  '404': answer('no such mission, run, question or webhook', ERROR),
  '413': answer('body over 1 MiB', ERROR),
  '429': answer("the mission's queue is full", ERROR),
};

const GATE = {
  type: 'object',
  properties: {
    run_id: { type: 'string' },
    paused: { type: 'boolean' },
    held: { type: 'array', items: { type: 'object' } },
    breakpoints: { type: 'array', items: { type: 'string' } },
    stepped: { type: ['object', 'null'] },
  },
  required: ['run_id', 'paused', 'held', 'breakpoints'],
};

const CONTROL = {
  type: 'object',
  properties: {
    action: { enum: ['pause', 'step', 'continue', 'break', 'unbreak'] },
    breakpoint: { type: 'string' },
  },
  required: ['action'],
};

const runIdParameter = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };

const accepted = answer('accepted', {
  type: 'object',
  properties: { run_id: { type: 'string' }, status: { enum: ['running', 'queued'] } },
  required: ['run_id', 'status'],
});

/** The OpenAPI document of a server (sortie `version`) whose webhooks are at `webhookPaths`. */
export function openApiDocument(
  webhookPaths: readonly string[],
  version: string,
): Record<string, unknown> {
  const webhooks = Object.fromEntries(
    webhookPaths.map((path) => [
      `/webhooks/${path}`,
      {
        post: {
          summary: 'Start a run of the mission whose trigger this is; the body is its inputs',
          parameters: [
            { name: 'X-Webhook-Secret', in: 'header', required: false, schema: { type: 'string' } },
          ],
          requestBody: { content: { 'application/json': { schema: { type: 'object' } } } },
          responses: { '202': accepted, ...errors },
        },
      },
    ]),
  );
  return {
    openapi: '3.1.0',
    info: { title: 'sortie serve', version },
    security: [{ bearer: [] }],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: {
        Error: {
          type: 'object',
          properties: {
            error: {
              type: 'object',
              properties: { code: { type: 'string' }, message: { type: 'string' } },
              required: ['code', 'message'],
            },
          },
          required: ['error'],
        },
      },
    },
    paths: {
      '/api/health': { get: { summary: 'The server is up', responses: { '200': answer('ok') } } },
      '/api/missions': {
        get: { summary: 'Missions and their input schemas', responses: { '200': answer('ok') } },
      },
      '/api/missions/{name}/runs': {
        post: {
          summary: 'Start a run: {"inputs": {...}}',
          parameters: [{ name: 'name', in: 'path', required: true, schema: { type: 'string' } }],
          requestBody: { content: { 'application/json': { schema: { type: 'object' } } } },
          responses: { '202': accepted, ...errors },
        },
      },
      '/api/runs': {
        get: {
          summary: 'Runs of the state directory, queued ones first',
          parameters: [
            { name: 'mission', in: 'query', schema: { type: 'string' } },
            { name: 'status', in: 'query', schema: { type: 'string' } },
          ],
          responses: { '200': answer('ok') },
        },
      },
      '/api/runs/{id}': {
        get: {
          summary: "A run: status, times, tokens, cost, each task's status, summary and output",
          parameters: [runIdParameter],
          responses: { '200': answer('ok'), '404': errors['404'] },
        },
      },
      '/api/runs/{id}/events': {
        get: {
          summary:
            "The run's events (as `sortie run --json` prints them) as Server-Sent Events; Last-Event-ID resumes",
          parameters: [runIdParameter],
          responses: { '200': { description: 'text/event-stream' }, '404': errors['404'] },
        },
      },
      '/api/runs/{id}/cancel': {
        post: {
          summary: 'Cancel a running or queued run',
          parameters: [runIdParameter],
          responses: { '202': answer('cancelling'), '404': errors['404'] },
        },
      },
      '/api/runs/{id}/resume': {
        post: {
          summary: 'Resume an interrupted, failed or cancelled run',
          parameters: [runIdParameter],
          responses: { '202': accepted, '409': answer('cannot be resumed', ERROR) },
        },
      },
      '/api/runs/{id}/control': {
        get: {
          summary: "A running run's debugger: paused, the points it holds, the breakpoints",
          parameters: [runIdParameter],
          responses: { '200': answer('the gate', GATE), '404': answer('not running here', ERROR) },
        },
        post: {
          summary:
            'Act on the debugger: {"action": "pause" | "step" | "continue"} or {"action": "break" | "unbreak", "breakpoint": "tool:NAME" | "actor:ID" | "model"}',
          parameters: [runIdParameter],
          requestBody: { content: { 'application/json': { schema: CONTROL } } },
          responses: {
            '200': answer('the gate afterwards (a step names the point it let go)', GATE),
            '400': errors['400'],
            '404': answer('not running here', ERROR),
          },
        },
      },
      '/api/questions': {
        get: {
          summary: 'Questions agents of served runs ask the person',
          parameters: [{ name: 'run_id', in: 'query', schema: { type: 'string' } }],
          responses: { '200': answer('ok') },
        },
      },
      '/api/questions/{id}/answer': {
        post: {
          summary: 'Answer a question: {"answer": "TEXT"} or {"answer": ["CHOICE", ...]}',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { '200': answer('answered'), '400': errors['400'], '404': errors['404'] },
        },
      },
      ...webhooks,
    },
  };
}
