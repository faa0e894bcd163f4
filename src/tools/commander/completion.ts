import type { ToolDefinition } from '../../models/model-types.ts';
import { defineTool, objectSchema } from '../define-tool.ts';

/** A route of a router task as the tools see it: its key (the target's name) and kind. */
export interface RouteOption {
  key: string;
  kind: 'task' | 'mission';
}

/** The literal route that activates nothing. */
export const NO_ROUTE = 'none';

/**
 * `task_complete`. Nothing is schema-required: which fields a call needs depends on
 * `succeed` and is checked, in the documented order, by the commander machine.
 */
export function taskCompleteTool(routes: readonly RouteOption[] = []): ToolDefinition {
  const properties: Record<string, unknown> = {
    summary: { type: 'string', description: 'What was done and found; dependent tasks receive it' },
    succeed: { type: 'boolean', default: true },
    reason: { type: 'string', description: 'Why the task failed (with succeed=false)' },
  };
  if (routes.length > 0) {
    properties.route = {
      type: 'string',
      enum: [...routes.map((route) => route.key), NO_ROUTE],
      description: 'The chosen route, or none',
    };
  }
  if (routes.some((route) => route.kind === 'mission')) {
    properties.mission_inputs = { type: 'object', description: "The target mission's inputs" };
  }
  return defineTool({
    name: 'task_complete',
    description:
      'Finish the task: succeed with a summary, or set succeed=false with a reason. Complete all subtasks first.',
    parameters: objectSchema([], properties),
  });
}

/** `submit_output`: embeds the task's real output schema so the model sees its fields. */
export function submitOutputTool(outputSchema: Record<string, unknown>): ToolDefinition {
  return defineTool({
    name: 'submit_output',
    description: "Submit the task's structured output. Submitting again replaces it.",
    parameters: objectSchema(['output'], { output: outputSchema }),
  });
}

/**
 * The arguments envelope of `submit_output` without the output schema: the commander checks
 * the envelope first and the output itself second, so output problems are reported with
 * paths relative to the output (`/total: must be number`).
 */
export const submitOutputEnvelope: ToolDefinition = submitOutputTool({});
