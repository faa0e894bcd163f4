import type { ToolDefinition } from '../../models/model-types.ts';
import { defineTool, objectSchema } from '../define-tool.ts';

const noArguments = objectSchema([], {});

/** `set_subtasks`: the commander's plan, 1-10 non-empty titles. */
export const setSubtasksTool: ToolDefinition = defineTool({
  name: 'set_subtasks',
  description:
    'Set your plan: 1-10 subtask titles in order. Call it first. It replaces the plan until a subtask is completed.',
  parameters: objectSchema(['subtasks'], {
    subtasks: {
      type: 'array',
      items: { type: 'string', minLength: 1 },
      minItems: 1,
      maxItems: 10,
    },
  }),
});

/** `get_subtasks`: the plan with each subtask's status. */
export const getSubtasksTool: ToolDefinition = defineTool({
  name: 'get_subtasks',
  description: 'List the subtasks of your plan with their status.',
  parameters: noArguments,
});

/** `complete_subtask`: completes the first unfinished subtask. */
export const completeSubtaskTool: ToolDefinition = defineTool({
  name: 'complete_subtask',
  description: 'Mark the current subtask (the first not completed) as completed.',
  parameters: noArguments,
});
