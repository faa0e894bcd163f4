import type { Block, Expr } from './ast.ts';
import { blockName, checkBody, headerSpan } from './body.ts';
import { errorAt, within, type DecodeContext } from './context.ts';
import { callsIn, firstStepName, traversalsIn } from './expression-references.ts';
import { readSchema } from './schema-bridge.ts';
import { didYouMean } from '../base/suggest.ts';
import { resolveImplements } from './tool-refs.ts';
import { BODY_ENCODING_LIST, BODY_ENCODINGS, isBodyEncoding } from './body-encoding.ts';
import type { ConfigSchema, CustomToolConfig } from './config-types.ts';
import { expandLoads, literalText, readNumber, readString, variableName } from './values.ts';

/** Default `timeout_seconds` of a custom HTTP tool. */
export const DEFAULT_TOOL_TIMEOUT_SECONDS = 30;

/** Decodes a custom HTTP `tool "NAME"` block; its request fields stay expressions for per-call evaluation. */
export function decodeTool(block: Block, context: DecodeContext): CustomToolConfig | undefined {
  const name = blockName(block, context);
  if (name === undefined) return undefined;
  const inner = within(context, `tool "${name}"`);
  const body = checkBody(
    block.body,
    {
      attributes: [
        'implements',
        'description',
        'inputs',
        'url',
        'headers',
        'query',
        'body',
        'content_type',
        'timeout_seconds',
      ],
      required: ['implements', 'url'],
      blocks: ['inputs'],
      lenient: { what: 'tools' },
    },
    inner,
    headerSpan(block),
  );
  const implementsAttribute = body.attributes.get('implements');
  const method = implementsAttribute && resolveImplements(implementsAttribute.value, inner);
  const descriptionAttribute = body.attributes.get('description');
  const description = readString(descriptionAttribute, inner);
  const inputs = readSchema(body, 'inputs', 'tool_inputs', inner);
  const inputsDeclared =
    body.attributes.has('inputs') || body.blocks.some((child) => child.type === 'inputs');
  // A declared but broken schema is already reported: do not report its uses as unknown too.
  const inputNames =
    inputsDeclared && !inputs
      ? undefined
      : new Set(inputs?.fields.map((field) => field.name) ?? []);
  const field = (attributeName: string): Expr | undefined => {
    const attribute = body.attributes.get(attributeName);
    if (attribute === undefined) return undefined;
    const expr = expandLoads(attribute.value, inner);
    checkToolExpression(expr, attributeName, inputNames, inputs, inner);
    return expr;
  };
  const url = field('url');
  const headers = entriesOf(field('headers'), 'headers', inner);
  const query = entriesOf(field('query'), 'query', inner);
  const requestBody = field('body');
  if (requestBody !== undefined && method === 'get') {
    errorAt(inner, requestBody.span, 'body is not allowed with builtins.http.get');
  }
  const contentType = field('content_type');
  if (contentType !== undefined) checkContentType(contentType, method, inner);
  const timeout = readNumber(body.attributes.get('timeout_seconds'), inner, { exclusiveMin: 0 });
  if (!method || url === undefined) return undefined;
  if (descriptionAttribute !== undefined && description === undefined) return undefined;
  const tool: CustomToolConfig = {
    name,
    implements: method,
    url,
    headers,
    query,
    timeoutSeconds: timeout ?? DEFAULT_TOOL_TIMEOUT_SECONDS,
    span: block.labelSpans[0] ?? block.span,
  };
  // Without a description the tool describes itself as the built-in it wraps (reference runtime).
  if (description !== undefined) tool.description = description;
  if (inputs) tool.inputs = inputs;
  if (requestBody) tool.body = requestBody;
  if (contentType) tool.contentType = contentType;
  return tool;
}

/** `content_type` goes with a body (not `get`/`delete`); a literal one must be a known kind. */
function checkContentType(
  expr: Expr,
  method: CustomToolConfig['implements'] | undefined,
  context: DecodeContext,
): void {
  if (method === 'get' || method === 'delete') {
    const message = `content_type is not allowed with builtins.http.${method} (it sends no body)`;
    errorAt(context, expr.span, message);
    return;
  }
  const literal = literalText(expr);
  if (literal === undefined || isBodyEncoding(literal)) return;
  errorAt(
    context,
    expr.span,
    `content_type must be ${BODY_ENCODING_LIST}, not "${literal}"${didYouMean(literal, BODY_ENCODINGS)}`,
  );
}

function entriesOf(
  expr: Expr | undefined,
  name: string,
  context: DecodeContext,
): Array<{ name: string; value: Expr }> {
  if (expr === undefined) return [];
  if (expr.kind !== 'object') {
    errorAt(context, expr.span, `${name} must be a map: { name = "value" }`);
    return [];
  }
  return expr.entries.map((entry) => ({ name: entry.key, value: entry.value }));
}

/** Request fields may use `inputs.NAME` (declared inputs) and `vars.NAME`, nothing else. */
function checkToolExpression(
  expr: Expr,
  attributeName: string,
  inputNames: ReadonlySet<string> | undefined,
  inputs: ConfigSchema | undefined,
  context: DecodeContext,
): void {
  for (const call of callsIn(expr)) {
    errorAt(context, call.nameSpan, `function ${call.name}() cannot be used in ${attributeName}`);
  }
  for (const traversal of traversalsIn(expr)) {
    if (traversal.root === 'vars') {
      variableName({ ...traversal, steps: traversal.steps.slice(0, 1) }, context);
    } else if (traversal.root === 'inputs') {
      const input = firstStepName(traversal);
      if (inputNames === undefined) continue;
      if (input === undefined) {
        errorAt(context, traversal.span, 'an input reference reads inputs.NAME');
      } else if (!inputNames.has(input)) {
        const why = inputs ? didYouMean(input, inputNames) : ': this tool declares no inputs';
        errorAt(context, traversal.span, `unknown input "${input}"${why}`);
      }
    } else {
      errorAt(
        context,
        traversal.rootSpan,
        `unknown reference "${traversal.root}" in ${attributeName}: use inputs.NAME or vars.NAME`,
      );
    }
  }
}
