import type { ToolDefinition } from '../../models/model-types.ts';
import type { AgentTool } from './agent-tool.ts';
import type { HttpMethod, HttpRequest } from './http-request.ts';
import { BODY_ENCODING_LIST, isBodyEncoding } from '../../config/body-encoding.ts';
import { errorOutcome } from './agent-tool.ts';
import { DEFAULT_HTTP_TIMEOUT_MS, executeHttpRequest } from './http-request.ts';
import { httpOutcome } from './http-tools.ts';

/** A custom tool's templates after evaluation for one call (`inputs.*` = the arguments). */
export interface EvaluatedHttpCall {
  url: string;
  headers?: Record<string, string>;
  query?: Record<string, string>;
  /** Sent as `contentType` says (JSON by default); undefined sends no body. */
  body?: unknown;
  /** `json`, `form` or `text` (config/body-encoding.ts); anything else is an error result. */
  contentType?: string;
}

/** What a config `tool` block contributes; `evaluate` fills its templates per call. */
export interface CustomHttpToolSpec {
  definition: ToolDefinition;
  method: HttpMethod;
  timeoutMs?: number;
  /** Evaluates url/headers/query/body with the validated arguments (defaults applied). */
  evaluate(args: Record<string, unknown>): EvaluatedHttpCall | Promise<EvaluatedHttpCall>;
}

/**
 * A custom `tool` block as an agent tool: its templates are evaluated from the call's
 * arguments, then sent through the same HTTP path as the built-ins.
 */
export function createCustomHttpTool(spec: CustomHttpToolSpec): AgentTool {
  return {
    definition: spec.definition,
    async execute(args, context) {
      const call = await spec.evaluate(args);
      const encoded = encodeBody(call);
      if (typeof encoded === 'string')
        return errorOutcome(`could not build the request: ${encoded}`);
      const result = await executeHttpRequest({
        method: spec.method,
        url: call.url,
        query: call.query,
        ...encoded,
        timeoutMs: spec.timeoutMs ?? DEFAULT_HTTP_TIMEOUT_MS,
        signal: context.signal,
      });
      return httpOutcome(result);
    },
  };
}

/** The request's body and headers for its `content_type`, or what is wrong with them. */
function encodeBody(
  call: EvaluatedHttpCall,
): Pick<HttpRequest, 'body' | 'rawBody' | 'headers'> | string {
  const encoding = call.contentType ?? 'json';
  if (!isBodyEncoding(encoding)) {
    return `content_type must be ${BODY_ENCODING_LIST}, not "${encoding}"`;
  }
  const headers = call.headers;
  if (call.body === undefined || encoding === 'json') return { headers, body: call.body };
  if (encoding === 'text') {
    if (typeof call.body !== 'string') {
      return `content_type "text" sends a string body; this body is ${describeValue(call.body)}`;
    }
    return { headers: withContentType(headers, 'text/plain; charset=utf-8'), rawBody: call.body };
  }
  const form = formBody(call.body);
  if (typeof form === 'string') return form;
  return {
    headers: withContentType(headers, 'application/x-www-form-urlencoded'),
    rawBody: form.toString(),
  };
}

/** An object of strings, numbers and booleans as form fields (null is an empty field). */
function formBody(body: unknown): URLSearchParams | string {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return `content_type "form" sends an object of fields; this body is ${describeValue(body)}`;
  }
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(body)) {
    if (value !== null && typeof value === 'object') {
      return `content_type "form" sends flat fields; field "${name}" is ${describeValue(value)}`;
    }
    form.append(name, value === null ? '' : String(value));
  }
  return form;
}

function describeValue(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** The tool block's own content-type header, when it sets one, wins. */
function withContentType(
  headers: Record<string, string> | undefined,
  contentType: string,
): Record<string, string> {
  const set = Object.keys(headers ?? {}).some((name) => name.toLowerCase() === 'content-type');
  return set ? { ...headers } : { ...headers, 'content-type': contentType };
}
