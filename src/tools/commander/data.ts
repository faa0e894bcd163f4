import type { ToolDefinition } from '../../models/model-types.ts';
import { defineTool, objectSchema } from '../define-tool.ts';

const taskName = { type: 'string', minLength: 1, description: 'A completed dependency task' };

const filter = objectSchema(['field', 'op', 'value'], {
  field: { type: 'string', description: 'Dot path into output, or index, item_id, status' },
  op: { enum: ['eq', 'ne', 'gt', 'lt', 'gte', 'lte', 'contains'] },
  value: {},
});

const aggregate = objectSchema(['op'], {
  op: { enum: ['count', 'sum', 'avg', 'min', 'max', 'distinct', 'group_by'] },
  field: { type: 'string' },
  group_by: { type: 'string' },
  group_op: { enum: ['count', 'sum', 'avg', 'min', 'max'] },
});

/**
 * `query_task_output`: structured output of a completed dependency. Paging defaults live in
 * the description, not as schema defaults, so the store can tell what the model asked for.
 */
export const queryTaskOutputTool: ToolDefinition = defineTool({
  name: 'query_task_output',
  description:
    'Read the output of a completed dependency task. Iterated tasks return item records; filter, sort, page (limit 20 by default, at most 200) or aggregate them.',
  parameters: objectSchema(['task'], {
    task: taskName,
    filters: { type: 'array', items: filter, description: 'All must match' },
    item_ids: { type: 'array', items: { type: 'string' } },
    limit: { type: 'integer', minimum: 1, maximum: 200 },
    offset: { type: 'integer', minimum: 0 },
    order_by: { type: 'string', description: 'Dot path to sort on' },
    desc: { type: 'boolean' },
    aggregate,
  }),
});

/** `ask_commander`: a question to the finished commander of a dependency. */
export const askCommanderTool: ToolDefinition = defineTool({
  name: 'ask_commander',
  description:
    "Ask the commander of a completed dependency task a question; it answers from its work. Iterated tasks need the item's index.",
  parameters: objectSchema(['task_name', 'question'], {
    task_name: taskName,
    question: { type: 'string', minLength: 1 },
    index: { type: 'integer', minimum: 0 },
  }),
});

/** `list_commander_questions`: every question asked of a task's commanders. */
export const listCommanderQuestionsTool: ToolDefinition = defineTool({
  name: 'list_commander_questions',
  description: 'List the questions already asked of a dependency task, with their indexes.',
  parameters: objectSchema(['task_name'], { task_name: taskName }),
});

/** `get_commander_answer`: the answer to an earlier question. */
export const getCommanderAnswerTool: ToolDefinition = defineTool({
  name: 'get_commander_answer',
  description: 'Get the answer to a question listed by list_commander_questions.',
  parameters: objectSchema(['task_name', 'index'], {
    task_name: taskName,
    index: { type: 'integer', minimum: 0 },
  }),
});
