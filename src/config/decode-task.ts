import type { Block, Expr, Span, TemplateExpr } from './ast.ts';
import { blockName, checkBody, expectNoLabels, headerSpan, singleBlock } from './body.ts';
import { errorAt, within, type DecodeContext } from './context.ts';
import { decodeIterator } from './decode-iterator.ts';
import { decodeBudget } from './decode-memory.ts';
import { checkObjective } from './objective-check.ts';
import { readNameList, referenceOf, reportUnsupportedNamespace } from './references.ts';
import { readSchema } from './schema-bridge.ts';
import { didYouMean } from '../base/suggest.ts';
import type {
  ConfigSchema,
  DatasetConfig,
  IteratorConfig,
  RouteConfig,
  TaskConfig,
} from './config-types.ts';
import { expandLoads, readString } from './values.ts';

/** A decoded task plus the positions the mission-level checks report at. */
export interface TaskDraft {
  task: TaskConfig;
  labelSpan: Span;
  context: DecodeContext;
  ownAgents: boolean;
  dependsOn: Array<{ name: string; span: Span }>;
  dependsOnSpan?: Span;
  routes: Array<RouteConfig & { span: Span }>;
  routerSpan?: Span;
  sendTo: Array<{ name: string; span: Span }>;
  sendToSpan?: Span;
}

/** What a task may reference inside its mission. */
export interface TaskScope {
  tasks: ReadonlySet<string>;
  missions: ReadonlySet<string>;
  agents: ReadonlySet<string>;
  datasets: ReadonlyMap<string, DatasetConfig | undefined>;
  inputs?: ConfigSchema;
  inputsBroken: boolean;
  missionAgents: string[];
  packets: ReadonlySet<string>;
}

/** Decodes a `task "NAME"` block. Graph rules (cycles, activation) are checked by the mission. */
export function decodeTask(
  block: Block,
  context: DecodeContext,
  scope: TaskScope,
): TaskDraft | undefined {
  const name = blockName(block, context);
  if (name === undefined) return undefined;
  const inner = within(context, `task "${name}"`);
  const body = checkBody(
    block.body,
    {
      attributes: ['objective', 'agents', 'depends_on', 'send_to', 'output', 'packets'],
      required: ['objective'],
      blocks: ['router', 'output', 'iterator', 'budget'],
      lenient: { what: 'tasks' },
    },
    inner,
    headerSpan(block),
  );
  const iteratorBlock = singleBlock(body.blocks, 'iterator', inner);
  const datasetNames = new Set(scope.datasets.keys());
  const iterator: IteratorConfig | undefined =
    iteratorBlock && decodeIterator(iteratorBlock, inner, datasetNames);
  const objective = readObjective(body.attributes.get('objective')?.value, inner);
  if (objective) {
    const itemSchema = iterator ? scope.datasets.get(iterator.dataset)?.schema : undefined;
    checkObjective(
      objective,
      {
        inputs: scope.inputs,
        inputsBroken: scope.inputsBroken,
        iterator,
        iteratorBroken: iteratorBlock !== undefined && iterator === undefined,
        itemSchema,
      },
      inner,
    );
  }
  const list = (
    attributeName: string,
    namespace: string,
    kind: string,
    names: ReadonlySet<string>,
  ) => readNameList(body.attributes.get(attributeName), { namespace, kind, names }, inner);
  const agentsAttribute = body.attributes.get('agents');
  const agents = list('agents', 'agents', 'agent', scope.agents).map((entry) => entry.name);
  const dependsOn = list('depends_on', 'tasks', 'task', scope.tasks);
  const sendTo = list('send_to', 'tasks', 'task', scope.tasks);
  const packets = list('packets', 'packets', 'packet', scope.packets).map((entry) => entry.name);
  const routerBlock = singleBlock(body.blocks, 'router', inner);
  const routes = routerBlock ? decodeRouter(routerBlock, inner, scope) : [];
  const output = readSchema(body, 'output', 'task_output', inner);
  const budgetBlock = singleBlock(body.blocks, 'budget', inner);
  const budget = budgetBlock && decodeBudget(budgetBlock, inner);
  const task: TaskConfig = {
    name,
    objective: objective ?? { kind: 'template', parts: [], heredoc: false, span: block.span },
    agents: agentsAttribute ? agents : [...scope.missionAgents],
    dependsOn: dependsOn.map((entry) => entry.name),
    sendTo: sendTo.map((entry) => entry.name),
    packets,
    dynamic: false,
    span: block.labelSpans[0] ?? block.span,
  };
  if (routerBlock)
    task.routes = routes.map(({ key, target, condition }) => ({ key, target, condition }));
  if (output) task.output = output;
  if (iterator) task.iterator = iterator;
  if (budget) task.budget = budget;
  const draft: TaskDraft = {
    task,
    labelSpan: block.labelSpans[0] ?? block.typeSpan,
    context: inner,
    ownAgents: agentsAttribute !== undefined,
    dependsOn,
    routes,
    sendTo,
  };
  const dependsOnAttribute = body.attributes.get('depends_on');
  if (dependsOnAttribute) draft.dependsOnSpan = dependsOnAttribute.nameSpan;
  if (routerBlock) draft.routerSpan = routerBlock.typeSpan;
  const sendToAttribute = body.attributes.get('send_to');
  if (sendToAttribute) draft.sendToSpan = sendToAttribute.nameSpan;
  return draft;
}

function readObjective(expr: Expr | undefined, context: DecodeContext): TemplateExpr | undefined {
  if (expr === undefined) return undefined;
  const expanded = expandLoads(expr, context);
  if (expanded.kind === 'template') return expanded;
  if (expanded.kind === 'literal' && typeof expanded.value === 'string') {
    return {
      kind: 'template',
      parts: [{ kind: 'text', value: expanded.value, span: expanded.span }],
      heredoc: false,
      span: expanded.span,
    };
  }
  return errorAt(context, expanded.span, 'objective must be a string');
}

function decodeRouter(block: Block, context: DecodeContext, scope: TaskScope): TaskDraft['routes'] {
  expectNoLabels(block, context);
  const inner = within(context, 'router');
  const body = checkBody(
    block.body,
    { attributes: [], blocks: ['route'], lenient: { what: 'routers' } },
    inner,
    block.typeSpan,
  );
  const routes: TaskDraft['routes'] = [];
  for (const routeBlock of body.blocks) {
    expectNoLabels(routeBlock, inner);
    const routeContext = within(inner, 'route');
    const routeBody = checkBody(
      routeBlock.body,
      {
        attributes: ['target', 'condition'],
        required: ['target', 'condition'],
        lenient: { what: 'routes' },
      },
      routeContext,
      routeBlock.typeSpan,
    );
    const targetAttribute = routeBody.attributes.get('target');
    const target =
      targetAttribute && resolveRouteTarget(targetAttribute.value, scope, routeContext);
    const condition = readString(routeBody.attributes.get('condition'), routeContext);
    if (!target || condition === undefined || !targetAttribute) continue;
    if (routes.some((route) => route.key === target.name)) {
      errorAt(routeContext, targetAttribute.value.span, `duplicate route target "${target.name}"`);
      continue;
    }
    routes.push({ key: target.name, target, condition, span: targetAttribute.value.span });
  }
  if (body.blocks.length === 0) {
    errorAt(inner, block.typeSpan, 'router needs at least one route { target, condition }');
  }
  return routes;
}

function resolveRouteTarget(
  expr: Expr,
  scope: TaskScope,
  context: DecodeContext,
): RouteConfig['target'] | undefined {
  const reference = referenceOf(expr);
  if (reference !== undefined && reportUnsupportedNamespace(reference, context)) return undefined;
  const segments = reference?.segments ?? [];
  const [root, name] = segments;
  if (reference?.form === 'string' && segments.length === 1 && root !== undefined) {
    if (scope.tasks.has(root)) return { kind: 'task', name: root };
    if (scope.missions.has(root)) return { kind: 'mission', name: root };
    const suggestion = didYouMean(root, [...scope.tasks, ...scope.missions]);
    return errorAt(context, expr.span, `unknown route target "${root}"${suggestion}`);
  }
  if (segments.length === 2 && name !== undefined && (root === 'tasks' || root === 'missions')) {
    const names = root === 'tasks' ? scope.tasks : scope.missions;
    const kind = root === 'tasks' ? 'task' : 'mission';
    if (names.has(name)) return { kind, name };
    return errorAt(
      context,
      expr.span,
      `unknown ${kind} "${name}" in route target${didYouMean(name, names)}`,
    );
  }
  return errorAt(context, expr.span, 'route target expects tasks.NAME or missions.NAME');
}
