/**
 * `variant "NAME" { … }`: what a variant changes before each run — models (the commanders',
 * every agent's, named agents'), variable values, tasks' objectives and agents' personalities.
 */
import type { Attribute, Block, Expr, ObjectEntry, TemplateExpr } from '../../config/ast.ts';
import { blockName, checkBody, headerSpan } from '../../config/body.ts';
import type { DecodeContext } from '../../config/context.ts';
import type { ModelRef } from '../../config/config-types.ts';
import { expandLoads, readString } from '../../config/values.ts';
import { didYouMean } from '../../base/suggest.ts';
import type { ExpectationScope } from './decode-expectation.ts';
import type { EvalVariant } from './eval-types.ts';
import { readModel } from './model-reference.ts';

const ATTRIBUTES = [
  'commander_model',
  'agents_model',
  'agent_models',
  'vars',
  'objectives',
  'personalities',
];

/** Decodes a variant; undefined (errors reported) when something it names does not exist. */
export function decodeVariant(
  block: Block,
  scope: ExpectationScope,
  context: DecodeContext,
): EvalVariant | undefined {
  const name = blockName(block, context);
  if (name === undefined) return undefined;
  const inner = { ...context, path: [...context.path, `variant "${name}"`] };
  const span = headerSpan(block);
  const body = checkBody(block.body, { attributes: ATTRIBUTES }, inner, span);
  const errorsBefore = inner.sink.errorCount;
  const model = (attributeName: string): ModelRef | undefined => {
    const attribute = body.attributes.get(attributeName);
    return attribute === undefined ? undefined : readModel(attribute.value, scope, inner);
  };
  const commanderModel = model('commander_model');
  const agentsModel = model('agents_model');
  const agents = new Set([...scope.config.agents.keys(), ...scope.mission.scopedAgents.keys()]);
  const tasks = new Set(scope.mission.tasks.keys());
  const agentModels = new Map<string, ModelRef>();
  for (const entry of entriesOf(body.attributes.get('agent_models'), inner)) {
    if (!known(entry, agents, 'agent', inner)) continue;
    const ref = readModel(entry.value, scope, inner);
    if (ref !== undefined) agentModels.set(entry.key, ref);
  }
  const vars: Record<string, string> = {};
  const variables = new Set(scope.config.variables.keys());
  for (const entry of entriesOf(body.attributes.get('vars'), inner)) {
    if (!known(entry, variables, 'variable', inner)) continue;
    const text = stringOf(entry, inner);
    if (text !== undefined) vars[entry.key] = text;
  }
  const objectives = new Map<string, TemplateExpr>();
  for (const entry of entriesOf(body.attributes.get('objectives'), inner)) {
    if (!known(entry, tasks, 'task', inner)) continue;
    const template = templateOf(expandLoads(entry.value, inner), entry.key, inner);
    if (template !== undefined) objectives.set(entry.key, template);
  }
  const personalities = new Map<string, string>();
  for (const entry of entriesOf(body.attributes.get('personalities'), inner)) {
    if (!known(entry, agents, 'agent', inner)) continue;
    const text = stringOf(entry, inner);
    if (text !== undefined) personalities.set(entry.key, text);
  }
  if (inner.sink.errorCount > errorsBefore) return undefined;
  return {
    name,
    ...(commanderModel !== undefined ? { commanderModel } : {}),
    ...(agentsModel !== undefined ? { agentsModel } : {}),
    agentModels,
    vars,
    objectives,
    personalities,
    span,
  };
}

/** The variant `baseline`: the project as it is, for an eval without variant blocks. */
export function baselineVariant(span: EvalVariant['span']): EvalVariant {
  return {
    name: 'baseline',
    agentModels: new Map(),
    vars: {},
    objectives: new Map(),
    personalities: new Map(),
    span,
  };
}

function entriesOf(attribute: Attribute | undefined, context: DecodeContext): ObjectEntry[] {
  if (attribute === undefined) return [];
  if (attribute.value.kind === 'object') return attribute.value.entries;
  context.sink.error(
    attribute.value.span,
    `${attribute.name} must be a map: { NAME = … }`,
    context.path,
  );
  return [];
}

function known(
  entry: ObjectEntry,
  names: ReadonlySet<string>,
  kind: string,
  context: DecodeContext,
): boolean {
  if (names.has(entry.key)) return true;
  context.sink.error(
    entry.keySpan,
    `no ${kind} "${entry.key}"${didYouMean(entry.key, names)}`,
    context.path,
  );
  return false;
}

function stringOf(entry: ObjectEntry, context: DecodeContext): string | undefined {
  const attribute: Attribute = {
    kind: 'attribute',
    name: entry.key,
    nameSpan: entry.keySpan,
    value: entry.value,
    span: entry.value.span,
  };
  return readString(attribute, context);
}

/** An objective as the task keeps it: a template (interpolating inputs, vars, item at run time). */
function templateOf(expr: Expr, task: string, context: DecodeContext): TemplateExpr | undefined {
  if (expr.kind === 'template') return expr;
  if (expr.kind === 'literal' && typeof expr.value === 'string') {
    const text = { kind: 'text' as const, value: expr.value, span: expr.span };
    return { kind: 'template', parts: [text], heredoc: false, span: expr.span };
  }
  context.sink.error(expr.span, `the objective of task "${task}" must be a string`, context.path);
  return undefined;
}
