import type { ToolDefinition } from '../../models/model-types.ts';
import { defineTool } from '../define-tool.ts';

const taskName = { type: 'string', minLength: 1, description: 'A completed dependency task' };

const filter = {
  type: 'object',
  properties: {
    field: { type: 'string', description: 'Dot path into output, or index, item_id, status' },
    op: { enum: ['eq', 'ne', 'gt', 'lt', 'gte', 'lte', 'contains'] },
    value: {},
  },
  required: ['field', 'op', 'value'],
  additionalProperties: false,
};

const aggregate = {
  type: 'object',
  properties: {
    op: { enum: ['count', 'sum', 'avg', 'min', 'max', 'distinct', 'group_by'] },
    field: { type: 'string' },
    group_by: { type: 'string' },
    group_op: { enum: ['count', 'sum', 'avg', 'min', 'max'] },
  },
  required: ['op'],
  additionalProperties: false,
};

/**
 * `query_task_output`: structured output of a completed dependency. Paging defaults live in
 * the description, not as schema defaults, so the store can tell what the model asked for.
 */
export const queryTaskOutputTool: ToolDefinition = defineTool({
  name: 'query_task_output',
  description:
    'Read the output of a completed dependency task. Iterated tasks return item records; filter, sort, page (limit 20 by default, at most 200) or aggregate them.',
  parameters: {
    type: 'object',
    properties: {
      task: taskName,
      filters: { type: 'array', items: filter, description: 'All must match' },
      item_ids: { type: 'array', items: { type: 'string' } },
      limit: { type: 'integer', minimum: 1, maximum: 200 },
      offset: { type: 'integer', minimum: 0 },
      order_by: { type: 'string', description: 'Dot path to sort on' },
      desc: { type: 'boolean' },
      aggregate,
    },
    required: ['task'],
    additionalProperties: false,
  },
});

/** `ask_commander`: a question to the finished commander of a dependency. */
export const askCommanderTool: ToolDefinition = defineTool({
  name: 'ask_commander',
  description:
    "Ask the commander of a completed dependency task a question; it answers from its work. Iterated tasks need the item's index.",
  parameters: {
    type: 'object',
    properties: {
      task_name: taskName,
      question: { type: 'string', minLength: 1 },
      index: { type: 'integer', minimum: 0 },
    },
    required: ['task_name', 'question'],
    additionalProperties: false,
  },
});

/** `list_commander_questions`: every question asked of a task's commanders. */
export const listCommanderQuestionsTool: ToolDefinition = defineTool({
  name: 'list_commander_questions',
  description: 'List the questions already asked of a dependency task, with their indexes.',
  parameters: {
    type: 'object',
    properties: { task_name: taskName },
    required: ['task_name'],
    additionalProperties: false,
  },
});

/** `get_commander_answer`: the answer to an earlier question. */
export const getCommanderAnswerTool: ToolDefinition = defineTool({
  name: 'get_commander_answer',
  description: 'Get the answer to a question listed by list_commander_questions.',
  parameters: {
    type: 'object',
    properties: {
      task_name: taskName,
      index: { type: 'integer', minimum: 0 },
    },
    required: ['task_name', 'index'],
    additionalProperties: false,
  },
});
