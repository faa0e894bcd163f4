import type { ToolDefinition } from '../../models/model-types.ts';
import { defineTool, objectSchema } from '../define-tool.ts';

/** `dataset_next`: hands out the next item of a sequential task's dataset. */
export const datasetNextTool: ToolDefinition = defineTool({
  name: 'dataset_next',
  description:
    'Get the next dataset item. Finish the current item first (output submitted, subtasks completed). Returns "exhausted" when none are left.',
  parameters: objectSchema([], {}),
});
