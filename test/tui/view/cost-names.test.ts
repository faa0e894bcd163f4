import { describe, expect, it } from 'vitest';
import { fitCostNames, type CostName } from '../../../src/tui/view/cost-names.ts';

const model = (key: string): CostName => ({ name: key, droppable: key.split('.')[0] + '.' });
const actor = (id: string): CostName => ({ name: id, droppable: '' });

/** The research example's models, and two configurations with the same model key. */
const RESEARCH_MODELS = [
  'anthropic.claude_haiku_4_5',
  'anthropic.claude_sonnet_4_6',
  'openai.gpt_4_1_mini',
].map(model);
const AMBIGUOUS_MODELS = ['anthropic.claude_haiku_4_5', 'bedrock.claude_haiku_4_5'].map(model);
const ACTORS = ['commander:gather', 'agent:gather/researcher', 'agent:forecast[12]/forecaster'].map(
  actor,
);

// The research example's figures leave the name column 19 columns at 80 and 59 at 120.
describe('fitCostNames at 80 columns (a 19-column name column)', () => {
  it('drops the model configuration when the rest names one model, keeps names that fit', () => {
    expect(fitCostNames(RESEARCH_MODELS, 19, 80)).toEqual([
      { text: 'claude_haiku_4_5', ownLine: false },
      { text: 'claude_sonnet_4_6', ownLine: false },
      { text: 'openai.gpt_4_1_mini', ownLine: false },
    ]);
  });

  it('keeps the configuration of a model key two configurations share, on its own line', () => {
    expect(fitCostNames(AMBIGUOUS_MODELS, 19, 80)).toEqual([
      { text: 'anthropic.claude_haiku_4_5', ownLine: true },
      { text: 'bedrock.claude_haiku_4_5', ownLine: true },
    ]);
  });

  it('puts an actor too long for the column whole on its own line', () => {
    expect(fitCostNames(ACTORS, 19, 80)).toEqual([
      { text: 'commander:gather', ownLine: false },
      { text: 'agent:gather/researcher', ownLine: true },
      { text: 'agent:forecast[12]/forecaster', ownLine: true },
    ]);
  });

  it('cuts an own-line name in the middle only past the terminal width', () => {
    const long = actor(`agent:${'x'.repeat(90)}/writer`);
    expect(fitCostNames([long], 19, 80)).toEqual([
      { text: `agent:${'x'.repeat(34)}…${'x'.repeat(32)}/writer`, ownLine: true },
    ]);
  });
});

describe('fitCostNames at 120 columns (a 59-column name column)', () => {
  it('keeps every name whole beside its figures, ambiguous or not', () => {
    for (const rows of [RESEARCH_MODELS, AMBIGUOUS_MODELS, ACTORS]) {
      expect(fitCostNames(rows, 59, 120)).toEqual(
        rows.map((row) => ({ text: row.name, ownLine: false })),
      );
    }
  });
});
