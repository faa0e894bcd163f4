/**
 * `load_skill {name}`: how an agent takes on one of its skills. The agent machine answers it
 * (which skills exist and which are loaded are its rules); this module is what the model sees.
 */
import type { ToolDefinition } from '../../models/model-types.ts';
import { defineTool, objectSchema } from '../define-tool.ts';

export const LOAD_SKILL = 'load_skill';

/** Offered to every agent with at least one skill, never to commanders. */
export const LOAD_SKILL_DEFINITION: ToolDefinition = defineTool({
  name: LOAD_SKILL,
  description:
    "Load one of your skills (listed under Skills in your instructions): the result holds the skill's instructions, and its tools are offered from your next turn.",
  parameters: objectSchema(['name'], {
    name: { type: 'string', minLength: 1, description: "The skill's name" },
  }),
});
