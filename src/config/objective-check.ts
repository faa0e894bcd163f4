import type { TemplateExpr } from './ast.ts';
import { errorAt, type DecodeContext } from './context.ts';
import { callsIn, firstStepName, traversalsIn } from './expression-references.ts';
import { didYouMean } from '../base/suggest.ts';
import type { ConfigSchema, IteratorConfig } from './config-types.ts';

/** What an objective may reference. */
export interface ObjectiveScope {
  /** Mission inputs; undefined when the mission has none or its schema is broken (`inputsBroken`). */
  inputs?: ConfigSchema;
  inputsBroken: boolean;
  iterator?: IteratorConfig;
  /**
   * The task has an iterator block that did not decode (its error is reported): whether
   * `item` is allowed is then unknown, and saying it is not would be a second, wrong cause.
   */
  iteratorBroken?: boolean;
  /** The iterated dataset's item schema, for checking `item.FIELD`. */
  itemSchema?: ConfigSchema;
}

/**
 * Checks an objective's references: declared inputs (never protected or file inputs),
 * declared non-secret variables, and `item` only in parallel iterated tasks.
 */
export function checkObjective(
  objective: TemplateExpr,
  scope: ObjectiveScope,
  context: DecodeContext,
): void {
  for (const call of callsIn(objective)) {
    errorAt(context, call.nameSpan, `function ${call.name}() cannot be used in an objective`);
  }
  for (const traversal of traversalsIn(objective)) {
    const name = firstStepName(traversal);
    switch (traversal.root) {
      case 'inputs':
        checkInput(traversal.span, name, scope, context);
        break;
      case 'vars':
        checkVariable(traversal.span, name, context);
        break;
      case 'item':
        checkItem(traversal.span, name, scope, context);
        break;
      default:
        errorAt(
          context,
          traversal.rootSpan,
          `unknown reference "${traversal.root}" in objective${didYouMean(traversal.root, ['inputs', 'vars', 'item'])}: use inputs.NAME, vars.NAME or item`,
        );
    }
  }
}

function checkInput(
  span: TemplateExpr['span'],
  name: string | undefined,
  scope: ObjectiveScope,
  context: DecodeContext,
): void {
  if (scope.inputsBroken) return;
  const fields = scope.inputs?.fields ?? [];
  const field = fields.find((candidate) => candidate.name === name);
  if (name === undefined || field === undefined) {
    const names = fields.map((candidate) => candidate.name);
    const suggestion = name === undefined ? '' : didYouMean(name, names);
    errorAt(context, span, `unknown input "${name ?? ''}" in objective${suggestion}`);
  } else if (field.protected) {
    errorAt(
      context,
      span,
      `protected input "${name}" cannot be interpolated into an objective`,
      `agents pass it to tools as \${secrets.${name}}`,
    );
  } else if (field.file) {
    errorAt(
      context,
      span,
      `file input "${name}" cannot be interpolated into an objective`,
      `agents read it through the slot input.${name}`,
    );
  }
}

function checkVariable(
  span: TemplateExpr['span'],
  name: string | undefined,
  context: DecodeContext,
): void {
  if (name === undefined) {
    errorAt(context, span, 'a variable reference reads vars.NAME');
    return;
  }
  const variable = context.variables.get(name);
  if (variable === undefined || !variable.declared) {
    // An undeclared variable is secret (the reference runtime's vault), so it is refused here
    // rather than made up: objectives are shown to models and people.
    const declared = [...context.variables.values()].filter((known) => known.declared);
    const names = declared.map((known) => known.name);
    const suggestion = didYouMean(name, names);
    const message =
      suggestion === ''
        ? `vars.${name} in an objective needs a variable "${name}" block: sortie reads a variable without one as a secret, and an objective is shown to models and people`
        : `unknown variable "${name}"${suggestion}`;
    errorAt(
      context,
      span,
      message,
      `declare it with variable "${name}" { } to use its value in objectives`,
    );
  } else if (variable.secret) {
    errorAt(context, span, `secret variable "${name}" cannot be used in an objective`);
  }
}

function checkItem(
  span: TemplateExpr['span'],
  name: string | undefined,
  scope: ObjectiveScope,
  context: DecodeContext,
): void {
  if (scope.iteratorBroken === true) return;
  if (!scope.iterator?.parallel) {
    const hint = scope.iterator
      ? 'a sequential task gets its items from dataset_next'
      : 'iterate the task over a dataset with iterator { dataset = datasets.NAME, parallel = true }';
    errorAt(
      context,
      span,
      'item can only be used in the objective of a parallel iterated task',
      hint,
    );
    return;
  }
  const fields = (scope.itemSchema?.fields ?? []).map((field) => field.name);
  if (name !== undefined && fields.length > 0 && !fields.includes(name)) {
    const suggestion = didYouMean(name, fields);
    errorAt(
      context,
      span,
      `unknown field "${name}" of dataset "${scope.iterator.dataset}" items${suggestion}`,
    );
  }
}
