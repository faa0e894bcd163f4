/** TypeScript functions registered as tools through the programmatic API. */
export {
  agentToolOf,
  defineFunctionTool,
  type FunctionToolContext,
  type SortieTool,
} from './function-tool.ts';
export type { JsonSchemaObject, StandardSchemaLike, ToolInputSchema } from './tool-input.ts';
