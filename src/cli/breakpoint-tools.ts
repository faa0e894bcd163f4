/**
 * `--break tool:NAME` checked against the project: a tool is named as models see it
 * (`tools_weather`, `call_agent`) or as the HCL writes it (`weather`, `tools.weather`,
 * `builtins.http.get`, `mcp.SERVER.TOOL`); a breakpoint that names no tool of the project is a
 * usage error with a suggestion rather than a breakpoint that never fires.
 */
import { UsageError } from '../base/errors.ts';
import { closestName } from '../base/suggest.ts';
import { BUILTIN_TOOL_NAMES, type Config } from '../config/config-types.ts';
import { formatBreakpoint, parseBreakpoint } from '../runtime/gate.ts';
import { toolNameFromReference } from '../tools/builtins/index.ts';
import {
  askAgentTool,
  askCommanderTool,
  callAgentTool,
  completeSubtaskTool,
  datasetNextTool,
  getCommanderAnswerTool,
  getSubtasksTool,
  listCommanderQuestionsTool,
  queryTaskOutputTool,
  setSubtasksTool,
  submitOutputTool,
  taskCompleteTool,
} from '../tools/commander/index.ts';
import { modelToolName } from '../tools/mcp/mcp-tool-names.ts';
import { RESULT_TOOL_NAMES } from '../tools/results/index.ts';
import { LOAD_SKILL } from '../tools/skills/load-skill.ts';

/** The slot and dataset tools, built per run from its slots and datasets (tools/files, tools/datasets). */
export const SLOT_AND_DATASET_TOOL_NAMES: readonly string[] = [
  'file_list',
  'file_read',
  'file_create',
  'file_delete',
  'file_search',
  'file_grep',
  'file_view',
  'set_dataset',
  'dataset_sample',
  'dataset_count',
  'result_to_dataset',
];

/** Every tool name sortie itself offers (commander, agent and built-in tools). */
export function internalToolNames(): string[] {
  const commander = [
    setSubtasksTool,
    getSubtasksTool,
    completeSubtaskTool,
    callAgentTool,
    askAgentTool,
    queryTaskOutputTool,
    askCommanderTool,
    listCommanderQuestionsTool,
    getCommanderAnswerTool,
    taskCompleteTool([]),
    submitOutputTool({ type: 'object' }),
    datasetNextTool,
  ].map((tool) => tool.name);
  return [
    ...commander,
    ...SLOT_AND_DATASET_TOOL_NAMES,
    ...RESULT_TOOL_NAMES,
    LOAD_SKILL,
    ...BUILTIN_TOOL_NAMES.map(toolNameFromReference),
  ];
}

/**
 * The breakpoints in the form the gate matches (`tool:tools_weather`); a tool breakpoint that
 * names no tool of the project throws a UsageError (exit 2) with the closest name.
 */
export function resolveBreakpoints(specs: readonly string[], config: Config): string[] {
  const known = new Set(internalToolNames());
  for (const name of config.tools.keys()) known.add(`tools_${name}`);
  return specs.map((spec) => {
    const breakpoint = parseBreakpoint(spec);
    if (breakpoint.kind !== 'tool') return formatBreakpoint(breakpoint);
    const written = spec
      .trim()
      .slice(spec.trim().indexOf(':') + 1)
      .trim();
    const tool = modelNameOf(written, breakpoint.tool, known, config);
    if (tool !== undefined) return `tool:${tool}`;
    const suggestion = closestName(written, [...known, ...config.tools.keys()]);
    throw new UsageError(
      `breakpoint "${spec.trim()}" names no tool of this project${suggestion === undefined ? '' : ` (did you mean "tool:${suggestion}"?)`}`,
      'name a tool as models see it (call_agent, tools_weather) or as the HCL writes it (weather, tools.weather, builtins.http.get, mcp.SERVER.TOOL)',
    );
  });
}

/** The model-visible name a breakpoint's tool stands for, or undefined when none. */
function modelNameOf(
  written: string,
  dotted: string,
  known: ReadonlySet<string>,
  config: Config,
): string | undefined {
  if (known.has(written)) return written;
  // A `tool` block's label as written in HCL: the model sees it as tools_LABEL.
  if (config.tools.has(written)) return `tools_${written}`;
  if (known.has(dotted)) return dotted;
  const mcp = /^mcp\.([^.]+)\.(.+)$/.exec(written);
  if (mcp?.[1] !== undefined && mcp[2] !== undefined && config.mcpServers.has(mcp[1])) {
    return modelToolName(mcp[1], mcp[2]);
  }
  // An MCP server's tools are known only once it runs: any name under a configured server.
  for (const server of config.mcpServers.keys()) {
    if (written.startsWith(`mcp_${server}_`) && written.length > `mcp_${server}_`.length) {
      return written;
    }
  }
  return undefined;
}
