import type { ToolDefinition } from '../../models/model-types.ts';
import { submitOutputTool, taskCompleteTool } from './completion.ts';
import type { RouteOption } from './completion.ts';
import {
  askCommanderTool,
  getCommanderAnswerTool,
  listCommanderQuestionsTool,
  queryTaskOutputTool,
} from './data.ts';
import { datasetNextTool } from './dataset-next.ts';
import { askAgentTool, callAgentTool } from './delegation.ts';
import { completeSubtaskTool, getSubtasksTool, setSubtasksTool } from './planning.ts';

export * from './completion.ts';
export * from './data.ts';
export * from './dataset-next.ts';
export * from './delegation.ts';
export * from './planning.ts';

/** What decides a commander's tool list (tools.md, "Which tools a session gets"). */
export interface TaskShape {
  /** The task has at least one agent. */
  hasAgents: boolean;
  /** The task has agents, or completed ancestors whose commanders used agents. */
  hasAskableAgents: boolean;
  /** The task has at least one ancestor. */
  hasAncestors: boolean;
  /** The task's output schema (JSON Schema), when it declares one. */
  outputSchema?: Record<string, unknown>;
  /** How the task iterates over a dataset, when it does. */
  iterator?: 'parallel' | 'sequential';
  /** The router's routes, when the task has a router. */
  routes?: RouteOption[];
}

/** The fields of a shape that decide its tools. */
const SHAPE_FIELDS = [
  'hasAgents',
  'hasAskableAgents',
  'hasAncestors',
  'outputSchema',
  'iterator',
  'routes',
] as const satisfies ReadonlyArray<keyof TaskShape>;

/** A built tool list with the shape fields it was built from (checked on reuse). */
interface BuiltTools {
  shape: Pick<TaskShape, (typeof SHAPE_FIELDS)[number]>;
  tools: ToolDefinition[];
}

/**
 * Tool lists by shape object. Every commander of a task (each item of a 10,000-item parallel
 * iteration) asks for the tools of the same shape object; building them anew each time cost CPU
 * and kept a copy of the `task_complete` definition alive per finished item.
 */
const builtByShape = new WeakMap<TaskShape, BuiltTools>();

function sameShape(built: BuiltTools, task: TaskShape): boolean {
  return SHAPE_FIELDS.every((field) => built.shape[field] === task[field]);
}

/**
 * The commander's tools in their fixed order: planning, delegation, data, completion
 * (`task_complete`, then `submit_output`), then `dataset_next`. The order never depends on
 * anything but the task's shape, so requests are identical between runs and cache well.
 * The same shape object gets the same (frozen) array back while its fields are unchanged.
 */
export function commanderTools(task: TaskShape): ToolDefinition[] {
  const built = builtByShape.get(task);
  if (built !== undefined && sameShape(built, task)) return built.tools;
  const tools = buildCommanderTools(task);
  builtByShape.set(task, { shape: { ...task }, tools });
  return tools;
}

function buildCommanderTools(task: TaskShape): ToolDefinition[] {
  const tools: ToolDefinition[] = [setSubtasksTool, getSubtasksTool, completeSubtaskTool];
  if (task.hasAgents) tools.push(callAgentTool);
  if (task.hasAgents || task.hasAskableAgents) tools.push(askAgentTool);
  if (task.hasAncestors) {
    tools.push(
      queryTaskOutputTool,
      askCommanderTool,
      listCommanderQuestionsTool,
      getCommanderAnswerTool,
    );
  }
  tools.push(taskCompleteTool(task.routes ?? []));
  if (task.outputSchema !== undefined) tools.push(submitOutputTool(task.outputSchema));
  if (task.iterator === 'sequential') tools.push(datasetNextTool);
  // Shared by every commander of the shape: nobody may change it in place.
  return Object.freeze(tools) as ToolDefinition[];
}
