import { describe, expect, it } from 'vitest';
import { initialState, type CostRow } from '../../../src/tui/store/index.ts';
import { costLines } from '../../../src/tui/view/cost-lines.ts';

function row(key: string): CostRow {
  return {
    key,
    requests: 1,
    input: 100,
    cacheRead: 0,
    cacheWrite: 0,
    output: 10,
    reasoning: 0,
    reasoningEstimated: false,
    costPico: 0n,
    unpriced: false,
    local: false,
  };
}

describe('costLines', () => {
  it('shortens the actors of parallel items so that each keeps its item number', () => {
    const actors = [0, 1, 2].map((index) => row(`agent:forecast[${index}]/forecaster`));
    const costs = {
      ...initialState().costs,
      byActor: new Map(actors.map((actor) => [actor.key, actor])),
    };
    // 90 columns leave the names 23.
    const names = costLines(costs, 90)
      .map((line) => line.text)
      .filter((text) => text.startsWith('agent:'))
      .map((text) => text.slice(0, 23));
    expect(names).toEqual([
      'agent:forec…[0]/foreca…',
      'agent:forec…[1]/foreca…',
      'agent:forec…[2]/foreca…',
    ]);
  });
});
