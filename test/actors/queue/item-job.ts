/** An item job as the run process makes it, for the queue tests: item `index` of task `work`. */
import type { ItemJobData } from '../../../src/actors/queue/item-jobs.ts';

const commanderTask = { hasAgents: false, hasAskableAgents: false, hasAncestors: true };
const prepared = { ancestors: ['fetch'], system: 'You are the commander.', commanderTask };

export function itemJob(index: number, runId: string): ItemJobData {
  return {
    mission: 'bench',
    task: 'work',
    dataset: 'items',
    index,
    attempt: 1,
    item: { n: index },
    prepared: prepared as ItemJobData['prepared'],
    knowledge: { fetch: { output: { pages: 3 } } } as unknown as ItemJobData['knowledge'],
    runId,
    inputs: { topic: 'tides' },
    gated: false,
    breaches: [],
    spent: { task: { tokens: 0, pico: '0' }, mission: { tokens: 0, pico: '0' } },
  };
}
