import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadProject } from '../../src/config/index.ts';

const EXAMPLE = join(import.meta.dirname, '../fixtures/config/spec-example');

describe('the complete example of config.md', () => {
  it('loads into the typed configuration the runtime consumes', async () => {
    const config = await loadProject(EXAMPLE, { env: {} });
    expect(config.warnings).toEqual([]);
    const mission = config.missions.get('price_check');
    expect(mission?.commander).toEqual({
      model: { config: 'anthropic', key: 'claude_haiku_4_5' },
      toolResponseMaxTokens: 16000,
    });
    expect([mission?.agents, mission?.scratchpad, mission?.directive]).toEqual([
      ['analyst', 'clerk'],
      true,
      'Compare supplier quotes in one currency',
    ]);
    expect(
      mission?.inputs?.fields.map((field) => [field.name, field.type, field.required, field.file]),
    ).toEqual([
      ['currency', 'string', false, false],
      ['quotes', 'list(object)', true, false],
      ['contract', 'file', false, true],
    ]);
    expect(mission?.datasets.get('quotes')?.bindTo).toBe('quotes');
    expect(mission?.datasets.get('quotes')?.schema?.fields.map((field) => field.name)).toEqual([
      'supplier',
      'amount',
      'currency',
    ]);
    const tasks = [...(mission?.tasks.values() ?? [])];
    expect(tasks.map((task) => [task.name, task.agents, task.dependsOn, task.dynamic])).toEqual([
      ['convert', ['analyst', 'clerk'], [], false],
      ['decide', ['analyst'], ['convert'], false],
      ['order', ['clerk'], [], true],
    ]);
    expect(tasks[0]?.iterator).toEqual({
      dataset: 'quotes',
      parallel: true,
      concurrencyLimit: 4,
      startDelay: 0,
      smoketest: false,
      maxRetries: 1,
    });
    expect(
      tasks[1]?.routes?.map((route) => [route.key, route.target.kind, route.condition]),
    ).toEqual([
      ['order', 'task', 'A quote is acceptable'],
      ['escalate', 'mission', 'No quote is acceptable'],
    ]);
    expect(tasks[0]?.output?.jsonSchema).toMatchObject({
      type: 'object',
      required: ['supplier', 'amount'],
    });
    const analyst = config.agents.get('analyst');
    expect(analyst?.tools).toEqual([
      { kind: 'custom', name: 'exchange_rate' },
      { kind: 'builtin', name: 'builtins.http.get' },
    ]);
    expect([analyst?.reasoning, analyst?.personality]).toEqual([
      'low',
      'You analyse prices and contracts. You show your arithmetic.\n',
    ]);
    const tool = config.tools.get('exchange_rate');
    expect([tool?.implements, tool?.url.kind, tool?.timeoutSeconds]).toEqual([
      'get',
      'template',
      30,
    ]);
    expect(config.models.get('local')?.models.get('qwen')?.apiName).toBe('qwen3:8b');
  });
});
