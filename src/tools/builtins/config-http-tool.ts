import { EvaluationError, evaluateExpression, evaluateToString } from '../../config/evaluate.ts';
import type { EvaluationScope } from '../../config/evaluate.ts';
import type { CustomToolConfig } from '../../config/types.ts';
import { defineTool } from '../define-tool.ts';
import type { AgentTool } from './agent-tool.ts';
import { errorOutcome } from './agent-tool.ts';
import type { EvaluatedHttpCall } from './custom-http-tool.ts';
import { createCustomHttpTool } from './custom-http-tool.ts';
import type { HttpMethod } from './http-request.ts';
import { toolNameFromReference } from './tool-names.ts';

const NO_INPUTS = { type: 'object', properties: {}, additionalProperties: false };

/** Evaluates a tool block's url/headers/query/body for one call. */
export function evaluateToolCall(
  config: CustomToolConfig,
  scope: EvaluationScope,
): EvaluatedHttpCall {
  const headers: Record<string, string> = {};
  for (const header of config.headers) headers[header.name] = evaluateToString(header.value, scope);
  const query: Record<string, string> = {};
  for (const entry of config.query) query[entry.name] = evaluateToString(entry.value, scope);
  const call: EvaluatedHttpCall = { url: evaluateToString(config.url, scope), headers, query };
  if (config.body !== undefined) call.body = evaluateExpression(config.body, scope);
  return call;
}

/**
 * A config `tool` block as the agent tool `tools_NAME`: arguments validated against its
 * `inputs` schema by the caller, templates evaluated with `inputs.*` = the arguments and
 * `vars.*`, then sent through the shared HTTP path. A template that cannot be evaluated
 * is an error result naming the reason.
 */
export function customToolFromConfig(
  config: CustomToolConfig,
  vars: Record<string, unknown>,
): AgentTool {
  const tool = createCustomHttpTool({
    definition: defineTool({
      name: toolNameFromReference(`tools.${config.name}`),
      description: config.description,
      parameters: config.inputs?.jsonSchema ?? NO_INPUTS,
    }),
    method: config.implements.toUpperCase() as HttpMethod,
    timeoutMs: config.timeoutSeconds * 1000,
    evaluate: (args) => evaluateToolCall(config, { inputs: args, vars }),
  });
  return {
    definition: tool.definition,
    async execute(args, context) {
      try {
        return await tool.execute(args, context);
      } catch (error) {
        if (error instanceof EvaluationError) {
          return errorOutcome(`could not build the request: ${error.message}`);
        }
        throw error;
      }
    },
  };
}
