import { describe, expect, it } from 'vitest';
import { initialState, type CostRow, type CostTables } from '../../../src/tui/store/index.ts';
import { costLines } from '../../../src/tui/view/cost-lines.ts';

function row(key: string, requests = 1): CostRow {
  return {
    key,
    requests,
    input: 100,
    cacheRead: 0,
    cacheWrite: 0,
    output: 10,
    reasoning: 0,
    reasoningEstimated: false,
    costPico: 1_000_000_000n,
    unpriced: false,
    local: false,
  };
}

function tables(models: string[], actors: string[]): CostTables {
  const byKey = (keys: string[]) => new Map(keys.map((key) => [key, row(key)]));
  return {
    ...initialState().costs,
    total: row('total', 9),
    byModel: byKey(models),
    byActor: byKey(actors),
  };
}

/** The lines of one table, from its heading to the blank line after it. */
function tableLines(costs: CostTables, width: number, title: string): string[] {
  const lines = costLines(costs, width).map((line) => line.text);
  const start = lines.findIndex((line) => line.startsWith(title));
  return lines.slice(start, lines.indexOf('', start));
}

const MODELS = ['anthropic.claude_haiku_4_5', 'anthropic.claude_sonnet_4_6'];
const ACTORS = ['commander:gather', 'agent:forecast[2]/forecaster'];

describe('costLines', () => {
  it('sizes the figure columns to their figures and names the models apart at 80 columns', () => {
    expect(tableLines(tables(MODELS, ACTORS), 80, 'per model')).toEqual([
      'per model             req  input  cache rd  cache wr  output  reasoning  dollars',
      'claude_haiku_4_5        1    100         0         0      10          0  $0.0010',
      'claude_sonnet_4_6       1    100         0         0      10          0  $0.0010',
    ]);
  });

  it('puts an actor id too long for the name column on its own line at 80 columns', () => {
    expect(tableLines(tables(MODELS, ACTORS), 80, 'per actor')).toEqual([
      'per actor             req  input  cache rd  cache wr  output  reasoning  dollars',
      'commander:gather        1    100         0         0      10          0  $0.0010',
      'agent:forecast[2]/forecaster',
      '                        1    100         0         0      10          0  $0.0010',
    ]);
  });

  it('keeps every name whole beside its figures at 120 columns', () => {
    const lines = costLines(tables(MODELS, ACTORS), 120).map((line) => line.text);
    for (const name of [...MODELS, ...ACTORS]) {
      expect(lines.find((line) => line.startsWith(`${name} `))).toMatch(/ 1 +100 .+\$0\.0010$/);
    }
    expect(Math.max(...lines.map((line) => line.length))).toBe(120);
  });
});
