/**
 * TypeScript functions registered as tools (`sortie`'s programmatic API): an HCL agent lists
 * one as `tools.NAME` like a `tool` block, and the model sees `tools_NAME`. The call goes
 * through the same path as every agent tool (gate, argument validation with defaults,
 * secrets, redaction, large-result interception); a thrown error is an error result.
 */
import { UsageError } from '../../base/errors.ts';
import { formatProblem } from '../../schema/index.ts';
import {
  errorOutcome,
  okOutcome,
  textOutcome,
  type AgentTool,
  type ToolOutcome,
} from '../builtins/agent-tool.ts';
import { toolNameFromReference } from '../builtins/tool-names.ts';
import { defineTool } from '../define-tool.ts';
import {
  jsonSchemaOf,
  problemsOfIssues,
  standardSchemaOf,
  type ToolInputOf,
  type ToolInputSchema,
} from './tool-input.ts';

/** What a tool function receives besides its arguments. */
export interface FunctionToolContext {
  /** Aborted when the calling agent stops (the run is cancelled, the task fails). */
  signal: AbortSignal;
}

/** A TypeScript function offered to agents as `tools.NAME`. */
export interface SortieTool<Schema extends ToolInputSchema = ToolInputSchema> {
  /** The name HCL refers to (`tools.NAME`): letters, digits and `_`, not starting with a digit. */
  name: string;
  /** What the model reads to decide when to call it. */
  description: string;
  /** A JSON Schema object, or a zod 4 (or other Standard JSON Schema) object schema. */
  input: Schema;
  /**
   * Does the work. A string result reaches the model as it is, `undefined` as
   * `{"status":"ok"}`, anything else as JSON; a thrown error becomes an error result.
   */
  run(input: ToolInputOf<Schema>, context: FunctionToolContext): unknown;
}

/** Declares a tool with its argument type inferred from a zod (Standard Schema) input. */
export function defineFunctionTool<Schema extends ToolInputSchema>(
  tool: SortieTool<Schema>,
): SortieTool<Schema> {
  return tool;
}

const TOOL_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,57}$/;

/** The agent tool of a registered function; a bad name or schema is a UsageError now. */
export function agentToolOf(tool: SortieTool): AgentTool {
  if (!TOOL_NAME.test(tool.name)) {
    throw new UsageError(
      `tool name ${JSON.stringify(tool.name)} cannot be referenced as tools.NAME`,
      'use letters, digits and _ (at most 58), not starting with a digit',
    );
  }
  const definition = defineTool({
    name: toolNameFromReference(`tools.${tool.name}`),
    description: tool.description,
    parameters: jsonSchemaOf(tool.name, tool.input),
  });
  const standard = standardSchemaOf(tool.input);
  return {
    definition,
    async execute(args, context) {
      let input: unknown = args;
      // Checks JSON Schema cannot say (refinements) and the schema's transforms.
      if (standard !== undefined) {
        const result = await standard['~standard'].validate(args);
        if (result.issues !== undefined) {
          const problems = problemsOfIssues(result.issues).map(formatProblem);
          return errorOutcome(`invalid arguments for ${definition.name}`, { problems });
        }
        input = result.value;
      }
      // The schema checked `input`: it is the function's declared argument type.
      return outcomeOf(await tool.run(input as never, { signal: context.signal }));
    },
  };
}

function outcomeOf(value: unknown): ToolOutcome {
  if (typeof value === 'string') return textOutcome(value);
  if (value === undefined || value === null) return okOutcome();
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    return errorOutcome(`the tool's result is not JSON: ${(error as Error).message}`);
  }
  if (text === undefined) return errorOutcome(`the tool's result is not JSON: a ${typeof value}`);
  return textOutcome(text);
}
