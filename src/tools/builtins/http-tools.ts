import { defineTool, objectSchema } from '../define-tool.ts';
import type { AgentTool, ToolOutcome } from './agent-tool.ts';
import { errorOutcome } from './agent-tool.ts';
import { MAX_BODY_BYTES } from './http-body.ts';
import type { HttpMethod, HttpResult } from './http-request.ts';
import { executeHttpRequest } from './http-request.ts';

const URL_PROPERTY = { type: 'string', description: 'Absolute http:// or https:// URL' };
const HEADERS_PROPERTY = {
  type: 'object',
  description: 'Request headers',
  additionalProperties: { type: 'string' },
};
const BODY_PROPERTY = {
  description: 'Request body: a string is sent as is, anything else as JSON',
};

/**
 * The model-facing result of a request: `{"status":<HTTP status>,"content_type":...,"body":...}`
 * (any HTTP status is a result the model reads, not a tool failure), or an error result.
 */
export function httpOutcome(result: HttpResult): ToolOutcome {
  if (!result.ok) return errorOutcome(result.message);
  const fields: Record<string, unknown> = {
    status: result.status,
    content_type: result.contentType,
    body: result.body,
  };
  const beside: Record<string, unknown> = {
    http_status: result.status,
    content_type: result.contentType,
  };
  if (result.truncated) {
    fields.truncated = beside.truncated = true;
    fields.note = `the body was over ${MAX_BODY_BYTES / (1024 * 1024)} MB and was cut there`;
  }
  const text = typeof result.body === 'string' ? result.body : JSON.stringify(result.body);
  return { content: JSON.stringify(fields), isError: false, payload: { text, beside } };
}

function httpTool(method: HttpMethod, withBody: boolean, summary: string): AgentTool {
  const properties: Record<string, unknown> = { url: URL_PROPERTY };
  if (withBody) properties.body = BODY_PROPERTY;
  properties.headers = HEADERS_PROPERTY;
  return {
    definition: defineTool({
      name: `builtins_http_${method.toLowerCase()}`,
      description: `${summary} Returns the HTTP status, content type and body (JSON parsed).`,
      parameters: objectSchema(['url'], properties),
    }),
    async execute(args, context) {
      const body = args.body;
      const result = await executeHttpRequest({
        method,
        url: args.url as string,
        headers: args.headers as Record<string, string> | undefined,
        ...(typeof body === 'string' ? { rawBody: body } : { body }),
        signal: context.signal,
      });
      return httpOutcome(result);
    },
  };
}

/** `builtins_http_get {url, headers?}`. */
export const httpGetTool = httpTool('GET', false, 'Send an HTTP GET request.');
/** `builtins_http_post {url, body?, headers?}`. */
export const httpPostTool = httpTool('POST', true, 'Send an HTTP POST request.');
/** `builtins_http_put {url, body?, headers?}`. */
export const httpPutTool = httpTool('PUT', true, 'Send an HTTP PUT request.');
/** `builtins_http_patch {url, body?, headers?}`. */
export const httpPatchTool = httpTool('PATCH', true, 'Send an HTTP PATCH request.');
/** `builtins_http_delete {url, headers?}`. */
export const httpDeleteTool = httpTool('DELETE', false, 'Send an HTTP DELETE request.');
