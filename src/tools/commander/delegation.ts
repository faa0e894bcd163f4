import type { ToolDefinition } from '../../models/model-types.ts';
import { defineTool, objectSchema } from '../define-tool.ts';

/** `call_agent`: runs an agent on a task and waits for its answer. */
export const callAgentTool: ToolDefinition = defineTool({
  name: 'call_agent',
  description:
    'Give an agent a task and wait for its answer. Calling the same agent again continues its conversation.',
  parameters: objectSchema(['name', 'task'], {
    name: { type: 'string', minLength: 1, description: 'Agent name' },
    task: { type: 'string', minLength: 1, description: 'What the agent should do' },
  }),
});

/** `ask_agent`: a question to an agent that already worked, answered without tools. */
export const askAgentTool: ToolDefinition = defineTool({
  name: 'ask_agent',
  description:
    'Ask an agent that already worked (here or in a dependency task) a question; it answers from its conversation, without tools.',
  parameters: objectSchema(['agent_id', 'question'], {
    agent_id: {
      type: 'string',
      minLength: 1,
      description: 'Agent name, or task/agent when ambiguous',
    },
    question: { type: 'string', minLength: 1 },
  }),
});
