import { describe, expect, it } from 'vitest';
import {
  builtinToolsForReference,
  findBuiltinTool,
  toolNameFromReference,
} from '../../../src/tools/builtins/tool-names.ts';

describe('tool names', () => {
  it('replaces dots with underscores', () => {
    expect(toolNameFromReference('builtins.http.get')).toBe('builtins_http_get');
    expect(toolNameFromReference('tools.weather')).toBe('tools_weather');
  });

  it('finds a built-in by either spelling', () => {
    expect(findBuiltinTool('builtins.utils.current_time')?.definition.name).toBe(
      'builtins_utils_current_time',
    );
    expect(findBuiltinTool('builtins_utils_current_time')?.definition.name).toBe(
      'builtins_utils_current_time',
    );
    expect(findBuiltinTool('builtins_utils_current.time')).toBeUndefined();
    expect(findBuiltinTool('tools_weather')).toBeUndefined();
  });

  it('expands the all groups in offering order', () => {
    expect(
      builtinToolsForReference('builtins.http.all').map((tool) => tool.definition.name),
    ).toEqual([
      'builtins_http_get',
      'builtins_http_post',
      'builtins_http_put',
      'builtins_http_patch',
      'builtins_http_delete',
    ]);
    expect(
      builtinToolsForReference('builtins.utils.all').map((tool) => tool.definition.name),
    ).toEqual(['builtins_utils_current_time', 'builtins_utils_sleep']);
    expect(builtinToolsForReference('builtins.http.head')).toEqual([]);
  });
});
