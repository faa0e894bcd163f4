/**
 * `expect "KIND" { … }` blocks of an eval or a case: each checked against the mission it
 * measures (tasks, agents, models) with file:line:col diagnostics.
 */
import type { Attribute, Block, Expr } from '../../config/ast.ts';
import { blockName, checkBody, headerSpan } from '../../config/body.ts';
import type { DecodeContext } from '../../config/context.ts';
import type { Config, MissionConfig } from '../../config/config-types.ts';
import { constantValue } from '../../config/schema-helpers/constant-value.ts';
import { readNumber, readString } from '../../config/values.ts';
import { didYouMean } from '../../base/suggest.ts';
import type { BoundMetric, Comparison, PlacedExpectation } from './eval-types.ts';
import { readCalls } from './decode-calls.ts';
import { describeExpectation } from './expectation-label.ts';
import { readModel } from './model-reference.ts';

const COMPARISONS = ['equals', 'contains', 'matches', 'near'] as const;

/** The kinds of `expect` and the attributes each takes. */
const KINDS: Readonly<Record<string, readonly string[]>> = {
  succeeded: ['task'],
  failed: ['task'],
  output_valid: ['task'],
  output: ['task', 'field', ...COMPARISONS, 'tolerance'],
  summary: ['task', 'contains', 'matches'],
  route: ['task', 'equals'],
  tools: ['agent', 'task', 'calls'],
  max: ['cost', 'tokens', 'requests', 'commander_turns', 'rejected_tool_calls', 'duration_seconds'],
  judge: ['task', 'model', 'rubric', 'threshold'],
};

/** What an expectation is checked against. */
export interface ExpectationScope {
  config: Config;
  mission: MissionConfig;
}

/** Decodes one `expect` block; its expectations (a `max` block gives one per bound). */
export function decodeExpectation(
  block: Block,
  scope: ExpectationScope,
  context: DecodeContext,
): PlacedExpectation[] {
  const kind = blockName(block, context);
  if (kind === undefined) return [];
  const attributes = KINDS[kind];
  if (attributes === undefined) {
    const at = block.labelSpans[0] ?? block.typeSpan;
    context.sink.error(
      at,
      `unknown expectation "${kind}"${didYouMean(kind, Object.keys(KINDS))}`,
      context.path,
      `expectations: ${Object.keys(KINDS).join(', ')}`,
    );
    return [];
  }
  const inner = { ...context, path: [...context.path, `expect "${kind}"`] };
  const body = checkBody(block.body, { attributes }, inner, headerSpan(block));
  const span = headerSpan(block);
  const place = (expectation: PlacedExpectation['expectation']): PlacedExpectation => ({
    expectation,
    label: describeExpectation(expectation),
    span,
  });
  const taskAttribute = body.attributes.get('task');
  const task =
    taskAttribute === undefined ? undefined : readTask(taskAttribute, scope.mission, inner);
  if (taskAttribute !== undefined && task === undefined) return [];
  const needTask = (): string | undefined => task ?? onlyTask(scope.mission, span, inner);
  switch (kind) {
    case 'succeeded':
    case 'failed':
      return [place({ kind: 'status', status: kind, ...(task !== undefined ? { task } : {}) })];
    case 'output_valid': {
      const named = needTask();
      return named === undefined ? [] : [place({ kind: 'output_valid', task: named })];
    }
    case 'output':
    case 'summary': {
      const named = needTask();
      const comparison = readComparison(body.attributes, span, inner);
      if (named === undefined || comparison === undefined) return [];
      if (kind === 'summary') return [place({ kind, task: named, comparison })];
      const field = optionalString(body.attributes.get('field'), inner);
      return [place({ kind, task: named, comparison, ...(field !== undefined ? { field } : {}) })];
    }
    case 'route': {
      const named = needTask();
      const equals = body.attributes.get('equals');
      if (equals === undefined) {
        inner.sink.error(span, 'missing required attribute "equals"', inner.path);
        return [];
      }
      const route = readString(equals, inner);
      if (named === undefined || route === undefined) return [];
      return [place({ kind, task: named, route: route === 'none' ? null : route })];
    }
    case 'tools':
      return readToolsExpectation(body.attributes, scope, task, span, inner).map(place);
    case 'max':
      return readBounds(body.attributes, span, inner).map(place);
    default:
      return readJudge(body.attributes, scope, task, span, inner).map(place);
  }
}

function readTask(
  attribute: Attribute,
  mission: MissionConfig,
  context: DecodeContext,
): string | undefined {
  const name = readString(attribute, context);
  if (name === undefined) return undefined;
  if (mission.tasks.has(name)) return name;
  const names = [...mission.tasks.keys()];
  context.sink.error(
    attribute.value.span,
    `mission "${mission.name}" has no task "${name}"${didYouMean(name, names)}`,
    context.path,
  );
  return undefined;
}

/** The mission's only task, or an error asking for `task`. */
function onlyTask(
  mission: MissionConfig,
  span: PlacedExpectation['span'],
  context: DecodeContext,
): string | undefined {
  const names = [...mission.tasks.keys()];
  const [only] = names;
  if (names.length === 1 && only !== undefined) return only;
  context.sink.error(
    span,
    `mission "${mission.name}" has ${names.length} tasks: name one with task = "…"`,
    context.path,
  );
  return undefined;
}

function optionalString(
  attribute: Attribute | undefined,
  context: DecodeContext,
): string | undefined {
  return attribute === undefined ? undefined : readString(attribute, context);
}

/** Exactly one of equals / contains / matches / near (+ tolerance). */
function readComparison(
  attributes: ReadonlyMap<string, Attribute>,
  span: PlacedExpectation['span'],
  context: DecodeContext,
): Comparison | undefined {
  const given = COMPARISONS.filter((name) => attributes.has(name));
  const [name] = given;
  if (given.length !== 1 || name === undefined) {
    context.sink.error(
      span,
      given.length === 0
        ? `give one of ${COMPARISONS.join(', ')}`
        : `give only one of ${given.join(', ')}`,
      context.path,
    );
    return undefined;
  }
  const attribute = attributes.get(name) as Attribute;
  if (attributes.has('tolerance') && name !== 'near') {
    const tolerance = attributes.get('tolerance') as Attribute;
    context.sink.error(tolerance.nameSpan, 'tolerance goes with near', context.path);
    return undefined;
  }
  if (name === 'near') {
    const value = readNumber(attribute, context);
    const toleranceAttribute = attributes.get('tolerance');
    const tolerance =
      toleranceAttribute === undefined ? 0 : readNumber(toleranceAttribute, context, { min: 0 });
    return value === undefined || tolerance === undefined
      ? undefined
      : { kind: 'near', value, tolerance };
  }
  if (name === 'equals') {
    const constant = constantValue(attribute.value);
    if (constant.ok) return { kind: 'equals', value: constant.value };
    context.sink.add([{ ...constant.diagnostic, path: [...context.path] }]);
    return undefined;
  }
  const text = readString(attribute, context);
  if (text === undefined) return undefined;
  if (name === 'contains') return { kind: 'contains', value: text };
  try {
    new RegExp(text, 'u');
  } catch (error) {
    context.sink.error(
      attribute.value.span,
      `matches is not a valid regular expression: ${(error as Error).message}`,
      context.path,
    );
    return undefined;
  }
  return { kind: 'matches', pattern: text };
}

function readToolsExpectation(
  attributes: ReadonlyMap<string, Attribute>,
  scope: ExpectationScope,
  task: string | undefined,
  span: PlacedExpectation['span'],
  context: DecodeContext,
): PlacedExpectation['expectation'][] {
  const agentAttribute = attributes.get('agent');
  const callsAttribute = attributes.get('calls');
  if (agentAttribute === undefined || callsAttribute === undefined) {
    const missing = agentAttribute === undefined ? 'agent' : 'calls';
    context.sink.error(span, `missing required attribute "${missing}"`, context.path);
    return [];
  }
  const agent = readString(agentAttribute, context);
  const calls = readCalls(callsAttribute, context);
  if (agent === undefined || calls === undefined) return [];
  const agents = new Set([...scope.config.agents.keys(), ...scope.mission.scopedAgents.keys()]);
  if (!agents.has(agent)) {
    context.sink.error(
      agentAttribute.value.span,
      `no agent "${agent}"${didYouMean(agent, agents)}`,
      context.path,
    );
    return [];
  }
  return [{ kind: 'tools', agent, calls, ...(task !== undefined ? { task } : {}) }];
}

function readBounds(
  attributes: ReadonlyMap<string, Attribute>,
  span: PlacedExpectation['span'],
  context: DecodeContext,
): PlacedExpectation['expectation'][] {
  if (attributes.size === 0) {
    context.sink.error(span, `give at least one bound: ${KINDS.max?.join(', ')}`, context.path);
  }
  const bounds: PlacedExpectation['expectation'][] = [];
  for (const [name, attribute] of attributes) {
    const decimal = name === 'cost' || name === 'duration_seconds';
    const limit = readNumber(attribute, context, { min: 0, integer: !decimal });
    if (limit !== undefined) bounds.push({ kind: 'max', metric: name as BoundMetric, limit });
  }
  return bounds;
}

function readJudge(
  attributes: ReadonlyMap<string, Attribute>,
  scope: ExpectationScope,
  task: string | undefined,
  span: PlacedExpectation['span'],
  context: DecodeContext,
): PlacedExpectation['expectation'][] {
  const missing = ['model', 'rubric'].filter((name) => !attributes.has(name));
  for (const name of missing) {
    context.sink.error(span, `missing required attribute "${name}"`, context.path);
  }
  if (missing.length > 0) return [];
  const model = readModel((attributes.get('model') as Attribute).value as Expr, scope, context);
  const rubric = readString(attributes.get('rubric') as Attribute, context);
  const thresholdAttribute = attributes.get('threshold');
  const threshold =
    thresholdAttribute === undefined ? 0.5 : readFraction(thresholdAttribute, context);
  if (model === undefined || rubric === undefined || threshold === undefined) return [];
  return [{ kind: 'judge', model, rubric, threshold, ...(task !== undefined ? { task } : {}) }];
}

/** A number from 0 to 1 (a pass rate, a judge's threshold). */
export function readFraction(attribute: Attribute, context: DecodeContext): number | undefined {
  const value = readNumber(attribute, context, { min: 0 });
  if (value === undefined) return undefined;
  if (value <= 1) return value;
  context.sink.error(attribute.value.span, `${attribute.name} must be 1 or less`, context.path);
  return undefined;
}
