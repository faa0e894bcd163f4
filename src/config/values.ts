import type { Attribute, CallExpr, Expr, TemplateExpr, TemplateText } from './ast.ts';
import { errorAt, type DecodeContext } from './context.ts';
import { missingVariableHint } from './variable-values.ts';

/**
 * Replaces every `load("path")` call in an expression with the file's text (a text-only
 * template), reporting load errors at the call. Other calls are left for the caller. An
 * expression without a `load()` is returned as it is (most hold none: no copy to make).
 */
export function expandLoads(expr: Expr, context: DecodeContext): Expr {
  switch (expr.kind) {
    case 'call': {
      if (expr.name === 'load') return loadedText(expr, context);
      const args = mapUnlessSame(expr.args, (arg) => expandLoads(arg, context));
      return args === expr.args ? expr : { ...expr, args };
    }
    case 'template': {
      const parts = mapUnlessSame(expr.parts, (part) =>
        part.kind === 'text' ? part : expandTemplatePart(part, context),
      );
      return parts === expr.parts ? expr : { ...expr, parts };
    }
    case 'tuple': {
      const items = mapUnlessSame(expr.items, (item) => expandLoads(item, context));
      return items === expr.items ? expr : { ...expr, items };
    }
    case 'object': {
      const entries = mapUnlessSame(expr.entries, (entry) => {
        const value = expandLoads(entry.value, context);
        return value === entry.value ? entry : { ...entry, value };
      });
      return entries === expr.entries ? expr : { ...expr, entries };
    }
    default:
      return expr;
  }
}

/**
 * `items` with each replaced by `next(item)` (an array: several in its place); the same array
 * when every `next(item)` is the item itself, so nothing is copied where nothing changed.
 */
function mapUnlessSame<T extends object>(items: T[], next: (item: T) => T | T[]): T[] {
  let mapped: T[] | undefined;
  items.forEach((item, index) => {
    const result = next(item);
    if (mapped === undefined && result === item) return;
    mapped ??= items.slice(0, index);
    if (Array.isArray(result)) mapped.push(...result);
    else mapped.push(result);
  });
  return mapped ?? items;
}

/** An interpolated expression expanded: a loaded file inside `${...}` becomes its text parts. */
function expandTemplatePart(part: Expr, context: DecodeContext): Expr | Array<TemplateText | Expr> {
  const expanded = expandLoads(part, context);
  if (expanded.kind === 'template' && part.kind === 'call') return expanded.parts;
  return expanded;
}

function loadedText(call: CallExpr, context: DecodeContext): TemplateExpr {
  const empty: TemplateExpr = { kind: 'template', parts: [], heredoc: false, span: call.span };
  const [argument] = call.args;
  const requested = argument === undefined ? undefined : literalText(argument);
  if (call.args.length !== 1 || requested === undefined) {
    errorAt(context, call.span, 'load() takes one argument: a literal path such as "prompts/x.md"');
    return empty;
  }
  const result = context.loadText(requested);
  if (!result.ok) {
    errorAt(context, call.span, result.message);
    return empty;
  }
  return { ...empty, parts: [{ kind: 'text', value: result.text, span: call.span }] };
}

/** The text of a string literal or an interpolation-free template; undefined otherwise. */
export function literalText(expr: Expr): string | undefined {
  if (expr.kind === 'literal') return typeof expr.value === 'string' ? expr.value : undefined;
  if (expr.kind !== 'template') return undefined;
  let text = '';
  for (const part of expr.parts) {
    if (part.kind !== 'text') return undefined;
    text += part.value;
  }
  return text;
}

/** A static string: literal text, `load()`, and `vars.*` substituted now. */
export function readString(
  attribute: Attribute | undefined,
  context: DecodeContext,
): string | undefined {
  if (attribute === undefined) return undefined;
  return stringOf(expandLoads(attribute.value, context), attribute.name, context);
}

function stringOf(expr: Expr, name: string, context: DecodeContext): string | undefined {
  if (expr.kind === 'literal' && typeof expr.value === 'string') return expr.value;
  if (expr.kind === 'template') {
    let text = '';
    for (const part of expr.parts) {
      const piece = part.kind === 'text' ? part.value : interpolated(part, name, context);
      if (piece === undefined) return undefined;
      text += piece;
    }
    return text;
  }
  if (expr.kind === 'traversal' && expr.root === 'vars') return interpolated(expr, name, context);
  return errorAt(context, expr.span, `${name} must be a string`);
}

function interpolated(expr: Expr, name: string, context: DecodeContext): string | undefined {
  if (expr.kind === 'literal') return expr.value === null ? '' : String(expr.value);
  if (expr.kind === 'template') return stringOf(expr, name, context);
  if (expr.kind === 'traversal' && expr.root === 'vars') {
    const variable = variableOf(expr, context);
    return variable === undefined ? undefined : String(variable);
  }
  return errorAt(context, expr.span, `${name} may only interpolate vars.* and load()`);
}

/** The value of a `vars.NAME` traversal, reporting unknown and unset variables. */
export function variableOf(
  expr: Expr,
  context: DecodeContext,
): string | number | boolean | undefined {
  const name = variableName(expr, context);
  if (name === undefined) return undefined;
  const variable = context.variables.get(name);
  if (variable?.value === undefined) {
    errorAt(context, expr.span, `variable "${name}" has no value`, missingVariableHint(name));
    return undefined;
  }
  return variable.value;
}

/**
 * The variable a `vars.NAME` traversal names, reporting malformed ones; an undeclared name
 * becomes an undeclared variable (`DecodeContext.useVariable`).
 */
export function variableName(expr: Expr, context: DecodeContext): string | undefined {
  const [step, ...rest] = expr.kind === 'traversal' ? expr.steps : [];
  if (expr.kind !== 'traversal' || step?.kind !== 'attr' || rest.length > 0) {
    return errorAt(context, expr.span, 'a variable reference reads vars.NAME');
  }
  return context.useVariable(step.name, expr.span, context.path).name;
}

/** A boolean literal. */
export function readBool(
  attribute: Attribute | undefined,
  context: DecodeContext,
): boolean | undefined {
  if (attribute === undefined) return undefined;
  const expr = attribute.value;
  if (expr.kind === 'literal' && typeof expr.value === 'boolean') return expr.value;
  return errorAt(context, expr.span, `${attribute.name} must be true or false`);
}

/** A number literal; `integer` additionally requires a whole number. */
export function readNumber(
  attribute: Attribute | undefined,
  context: DecodeContext,
  options: { integer?: boolean; min?: number; exclusiveMin?: number } = {},
): number | undefined {
  if (attribute === undefined) return undefined;
  const expr = attribute.value;
  const kind = options.integer ? 'a whole number' : 'a number';
  const value = expr.kind === 'literal' ? expr.value : undefined;
  if (typeof value !== 'number' || (options.integer && !Number.isInteger(value))) {
    return errorAt(context, expr.span, `${attribute.name} must be ${kind}`);
  }
  if (options.exclusiveMin !== undefined && value <= options.exclusiveMin) {
    errorAt(context, expr.span, `${attribute.name} must be greater than ${options.exclusiveMin}`);
    return undefined;
  }
  if (options.min !== undefined && value < options.min) {
    return errorAt(context, expr.span, `${attribute.name} must be ${options.min} or more`);
  }
  return value;
}

/** The items of a tuple attribute (`[a, b]`), or undefined with an error. */
export function readList(
  attribute: Attribute | undefined,
  context: DecodeContext,
): Expr[] | undefined {
  if (attribute === undefined) return undefined;
  if (attribute.value.kind === 'tuple') return attribute.value.items;
  return errorAt(context, attribute.value.span, `${attribute.name} must be a list: [ ... ]`);
}

/** A map of static strings (`aliases = { k = "v" }`), in declaration order. */
export function readStringMap(
  attribute: Attribute,
  context: DecodeContext,
): Map<string, string> | undefined {
  const expr = expandLoads(attribute.value, context);
  if (expr.kind !== 'object') {
    return errorAt(context, expr.span, `${attribute.name} must be a map: { key = "value" }`);
  }
  const result = new Map<string, string>();
  for (const entry of expr.entries) {
    const value = stringOf(entry.value, `${attribute.name}.${entry.key}`, context);
    if (value !== undefined) result.set(entry.key, value);
  }
  return result;
}
