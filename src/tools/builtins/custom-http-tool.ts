import type { ToolDefinition } from '../../models/model-types.ts';
import type { AgentTool } from './agent-tool.ts';
import type { HttpMethod } from './http-request.ts';
import { DEFAULT_HTTP_TIMEOUT_MS, executeHttpRequest } from './http-request.ts';
import { httpOutcome } from './http-tools.ts';

/** A custom tool's templates after evaluation for one call (`inputs.*` = the arguments). */
export interface EvaluatedHttpCall {
  url: string;
  headers?: Record<string, string>;
  query?: Record<string, string>;
  /** Sent as JSON; undefined sends no body. */
  body?: unknown;
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
      const result = await executeHttpRequest({
        method: spec.method,
        url: call.url,
        headers: call.headers,
        query: call.query,
        body: call.body,
        timeoutMs: spec.timeoutMs ?? DEFAULT_HTTP_TIMEOUT_MS,
        signal: context.signal,
      });
      return httpOutcome(result);
    },
  };
}
