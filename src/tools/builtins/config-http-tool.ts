import type { Expr } from '../../config/ast.ts';
import { EvaluationError, evaluateExpression, evaluateToString } from '../../config/evaluate.ts';
import { interpolationText, type EvaluationScope } from '../../config/evaluate.ts';
import { firstStepName, traversalsIn } from '../../config/expression-references.ts';
import type { CustomToolConfig } from '../../config/config-types.ts';
import { defineTool, objectSchema } from '../define-tool.ts';
import type { AgentTool } from './agent-tool.ts';
import { errorOutcome } from './agent-tool.ts';
import type { EvaluatedHttpCall } from './custom-http-tool.ts';
import { createCustomHttpTool } from './custom-http-tool.ts';
import type { HttpMethod } from './http-request.ts';
import { findBuiltinTool, toolNameFromReference } from './tool-names.ts';
import { renderHeader, renderUrl, RequestTemplateError } from './url-template.ts';
import type { PieceSource, TemplatePiece } from './url-template.ts';

const NO_INPUTS = objectSchema([], {});

/** The variables a tool block's templates read: values, and which of them are secret. */
export interface ToolVariables {
  values: Record<string, unknown>;
  secret: ReadonlySet<string>;
}

/**
 * Evaluates a tool block's url/headers/query/body for one call. The URL is rendered piece
 * by piece so inputs and secrets are encoded for where they land (url-template.ts); `query`
 * entries are URL-encoded when appended; header values must be one line.
 */
export function evaluateToolCall(
  config: CustomToolConfig,
  inputs: Record<string, unknown>,
  variables: ToolVariables,
): EvaluatedHttpCall {
  const scope: EvaluationScope = { inputs, vars: variables.values };
  const pieces = (expr: Expr): TemplatePiece[] => templatePieces(expr, scope, variables.secret);
  const headers: Record<string, string> = {};
  for (const header of config.headers) {
    headers[header.name] = renderHeader(header.name, pieces(header.value));
  }
  const query: Record<string, string> = {};
  for (const entry of config.query) query[entry.name] = evaluateToString(entry.value, scope);
  const call: EvaluatedHttpCall = { url: renderUrl(pieces(config.url)), headers, query };
  if (config.body !== undefined) call.body = evaluateExpression(config.body, scope);
  if (config.contentType !== undefined) {
    call.contentType = evaluateToString(config.contentType, scope);
  }
  return call;
}

/** A template's literal text and interpolated values, each value with its source. */
function templatePieces(
  expr: Expr,
  scope: EvaluationScope,
  secret: ReadonlySet<string>,
): TemplatePiece[] {
  const parts = expr.kind === 'template' ? expr.parts : [expr];
  return parts.map((part) => {
    if (part.kind === 'text') return { source: 'literal', text: part.value };
    const text = interpolationText(evaluateExpression(part, scope));
    return { ...sourceOf(part, secret), text };
  });
}

/** An input when the value reads one (the model chose it), else a secret or plain variable. */
function sourceOf(expr: Expr, secret: ReadonlySet<string>): PieceSource {
  const traversals = traversalsIn(expr);
  const input = traversals.find((traversal) => traversal.root === 'inputs');
  if (input !== undefined) return { source: 'input', name: firstStepName(input) ?? 'inputs' };
  const variables = traversals.filter((traversal) => traversal.root === 'vars');
  const secretVariable = variables.find((traversal) => secret.has(firstStepName(traversal) ?? ''));
  if (secretVariable !== undefined) {
    return { source: 'secret', name: firstStepName(secretVariable) ?? 'vars' };
  }
  const variable = variables[0];
  return variable === undefined
    ? { source: 'literal' }
    : { source: 'variable', name: firstStepName(variable) ?? 'vars' };
}

/**
 * A config `tool` block as the agent tool `tools_NAME`: arguments validated against its
 * `inputs` schema by the caller, templates evaluated with `inputs.*` = the arguments and
 * `vars.*`, then sent through the shared HTTP path. A template that cannot be evaluated or
 * rendered safely is an error result naming the reason.
 */
export function customToolFromConfig(
  config: CustomToolConfig,
  variables: ToolVariables,
): AgentTool {
  const tool = createCustomHttpTool({
    definition: defineTool({
      name: toolNameFromReference(`tools.${config.name}`),
      // A block without a description reads as the built-in it wraps (as in the reference runtime).
      description:
        config.description ??
        findBuiltinTool(`builtins.http.${config.implements}`)?.definition.description ??
        '',
      parameters: config.inputs?.jsonSchema ?? NO_INPUTS,
    }),
    method: config.implements.toUpperCase() as HttpMethod,
    timeoutMs: config.timeoutSeconds * 1000,
    evaluate: (args) => evaluateToolCall(config, args, variables),
  });
  return {
    definition: tool.definition,
    async execute(args, context) {
      try {
        return await tool.execute(args, context);
      } catch (error) {
        if (error instanceof EvaluationError || error instanceof RequestTemplateError) {
          return errorOutcome(`could not build the request: ${error.message}`);
        }
        throw error;
      }
    },
  };
}
