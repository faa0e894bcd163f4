import { describe, expect, it } from 'vitest';
import { BUILTIN_TOOL_NAMES } from '../../../src/config/config-types.ts';
import { findBuiltinTool, toolNameFromReference } from '../../../src/tools/builtins/tool-names.ts';

describe('tool names', () => {
  it('replaces dots with underscores', () => {
    expect(toolNameFromReference('builtins.http.get')).toBe('builtins_http_get');
    expect(toolNameFromReference('tools.weather')).toBe('tools_weather');
  });

  it('finds a built-in by its reference and nothing else', () => {
    expect(findBuiltinTool('builtins.utils.current_time')?.definition.name).toBe(
      'builtins_utils_current_time',
    );
    expect(findBuiltinTool('builtins.http.head')).toBeUndefined();
    expect(findBuiltinTool('toString')).toBeUndefined();
  });

  it("implements every built-in of config's list under its model-visible name", () => {
    const implemented = BUILTIN_TOOL_NAMES.filter((name) => name !== 'builtins.human.ask').map(
      (name) => findBuiltinTool(name)?.definition.name,
    );
    expect(implemented).toEqual([
      'builtins_http_get',
      'builtins_http_post',
      'builtins_http_put',
      'builtins_http_patch',
      'builtins_http_delete',
      'builtins_utils_current_time',
      'builtins_utils_sleep',
    ]);
  });
});
