import type { BuiltinToolName } from '../../config/config-types.ts';
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

/**
 * The implementation of each built-in of config's list; `builtins.human.ask` is built per run
 * around the run's human desk. The type makes a built-in added to the list without one fail.
 */
const BUILTINS_BY_REFERENCE: Record<Exclude<BuiltinToolName, 'builtins.human.ask'>, AgentTool> = {
  'builtins.http.get': httpGetTool,
  'builtins.http.post': httpPostTool,
  'builtins.http.put': httpPutTool,
  'builtins.http.patch': httpPatchTool,
  'builtins.http.delete': httpDeleteTool,
  'builtins.utils.current_time': currentTimeTool,
  'builtins.utils.sleep': sleepTool,
};

/** The built-in tool a reference (`builtins.http.get`) stands for; undefined for anything else. */
export function findBuiltinTool(reference: string): AgentTool | undefined {
  return Object.hasOwn(BUILTINS_BY_REFERENCE, reference)
    ? BUILTINS_BY_REFERENCE[reference as keyof typeof BUILTINS_BY_REFERENCE]
    : undefined;
}
