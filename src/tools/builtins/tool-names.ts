import type { AgentTool } from './agent-tool.ts';
import { currentTimeTool } from './current-time.ts';
import {
  httpDeleteTool,
  httpGetTool,
  httpPatchTool,
  httpPostTool,
  httpPutTool,
} from './http-tools.ts';
import { sleepTool } from './sleep-tool.ts';

/**
 * The model-visible name of a tool reference: dots become underscores
 * (`builtins.http.get` → `builtins_http_get`, `tools.weather` → `tools_weather`).
 */
export function toolNameFromReference(reference: string): string {
  return reference.replaceAll('.', '_');
}

/** Every built-in tool by its config reference, in the order they are offered. */
const BUILTINS_BY_REFERENCE: ReadonlyMap<string, AgentTool> = new Map([
  ['builtins.http.get', httpGetTool],
  ['builtins.http.post', httpPostTool],
  ['builtins.http.put', httpPutTool],
  ['builtins.http.patch', httpPatchTool],
  ['builtins.http.delete', httpDeleteTool],
  ['builtins.utils.current_time', currentTimeTool],
  ['builtins.utils.sleep', sleepTool],
]);

/** The group references that stand for several built-ins. */
const BUILTIN_GROUPS: ReadonlyMap<string, string> = new Map([
  ['builtins.http.all', 'builtins.http.'],
  ['builtins.utils.all', 'builtins.utils.'],
]);

const BUILTINS_BY_NAME: ReadonlyMap<string, AgentTool> = new Map(
  [...BUILTINS_BY_REFERENCE.values()].map((tool) => [tool.definition.name, tool]),
);

/**
 * The built-in tool a reference or model-visible name stands for, accepting both
 * spellings (`builtins.http.get`, `builtins_http_get`); undefined for anything else.
 */
export function findBuiltinTool(nameOrReference: string): AgentTool | undefined {
  return BUILTINS_BY_REFERENCE.get(nameOrReference) ?? BUILTINS_BY_NAME.get(nameOrReference);
}

/**
 * The built-in tools a reference selects: one for a single tool, several for
 * `builtins.http.all` / `builtins.utils.all`, none for an unknown reference.
 */
export function builtinToolsForReference(reference: string): AgentTool[] {
  const prefix = BUILTIN_GROUPS.get(reference);
  if (prefix === undefined) {
    const tool = findBuiltinTool(reference);
    return tool === undefined ? [] : [tool];
  }
  return [...BUILTINS_BY_REFERENCE]
    .filter(([name]) => name.startsWith(prefix))
    .map(([, tool]) => tool);
}

/** The config references of every built-in tool, in offering order. */
export const BUILTIN_TOOL_REFERENCES: readonly string[] = [...BUILTINS_BY_REFERENCE.keys()];
