import { beforeEach, describe, expect, it } from 'vitest';
import type { AgentTool } from '../../../src/tools/builtins/agent-tool.ts';
import { DatasetStore, datasetToolsFor } from '../../../src/tools/datasets/index.ts';
import { ResultStore } from '../../../src/tools/results/index.ts';
import { toolCaller } from '../builtins/call-tool.ts';
import { temporaryDirectory } from '../../helpers/temp-dir.ts';

const CITY_SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    population: { type: 'integer' },
    country: { type: 'string', default: 'FR' },
  },
  required: ['name'],
};

let base: string;
let results: ResultStore;
let store: DatasetStore;
let tools: Map<string, AgentTool>;
let updates: Array<{ name: string; count: number }>;

beforeEach(async () => {
  base = await temporaryDirectory('datasets');
  results = await ResultStore.open(base);
  updates = [];
  store = new DatasetStore(
    [
      { name: 'cities', schema: CITY_SCHEMA, items: [{ name: 'Lyon', country: 'FR' }] },
      { name: 'notes' },
    ],
    (update) => updates.push(update),
  );
  tools = new Map(datasetToolsFor(store, results).map((tool) => [tool.definition.name, tool]));
});

const call = toolCaller(() => tools);

const ok = (fields: Record<string, unknown>) => ({
  content: JSON.stringify({ status: 'ok', ...fields }),
  isError: false,
});
const error = (message: string, extra: Record<string, unknown> = {}) => ({
  content: JSON.stringify({ status: 'error', error: message, ...extra }),
  isError: true,
});

describe('dataset tools', () => {
  it('are offered in order', async () => {
    expect([...tools.keys()]).toEqual([
      'set_dataset',
      'dataset_sample',
      'dataset_count',
      'result_to_dataset',
    ]);
  });

  it('are offered without declared datasets too, each saying that none is declared', async () => {
    const none = new Map(
      datasetToolsFor(new DatasetStore([]), results).map((tool) => [tool.definition.name, tool]),
    );
    expect([...none.keys()]).toEqual([
      'set_dataset',
      'dataset_sample',
      'dataset_count',
      'result_to_dataset',
    ]);
    const undeclared = error(
      'dataset "cities" is not declared: this mission declares no datasets, and tools cannot create one; give the items in your answer instead',
    );
    const callNone = toolCaller(() => none);
    expect(await callNone('set_dataset', { name: 'cities', items: [{ name: 'Nice' }] })).toEqual(
      undeclared,
    );
    expect(await callNone('dataset_sample', { name: 'cities' })).toEqual(undeclared);
    expect(await callNone('dataset_count', { name: 'cities' })).toEqual(undeclared);
    const stored = await results.save(JSON.stringify([1, 2, 3]));
    expect(await callNone('result_to_dataset', { id: stored.id, dataset_name: 'cities' })).toEqual(
      undeclared,
    );
    expect(none.get('set_dataset')?.definition.parameters).toMatchObject({
      properties: { name: { type: 'string', description: 'Dataset (this mission declares none)' } },
    });
  });

  it('set_dataset replaces items, applying schema defaults', async () => {
    expect(
      await call('set_dataset', {
        name: 'cities',
        items: [{ name: 'Nice' }, { name: 'Pau', country: 'ES' }],
      }),
    ).toEqual(ok({ dataset: 'cities', count: 2 }));
    expect(store.items('cities')).toEqual([
      { name: 'Nice', country: 'FR' },
      { name: 'Pau', country: 'ES' },
    ]);
    expect(updates).toEqual([{ name: 'cities', count: 2 }]);
  });

  it('set_dataset appends when asked', async () => {
    expect(
      await call('set_dataset', { name: 'cities', items: [{ name: 'Nice' }], append: true }),
    ).toEqual(ok({ dataset: 'cities', count: 2 }));
  });

  it('rejects invalid items with item index and path, changing nothing', async () => {
    const outcome = await call('set_dataset', {
      name: 'cities',
      items: [{ name: 'Nice' }, { name: 3 }, { population: 1.5 }],
    });
    expect(outcome).toEqual(
      error('2 items do not match the schema of dataset "cities"; nothing was changed', {
        problems: [
          'item 1: /name: must be string',
          "item 2: /: must have required property 'name'",
          'item 2: /population: must be integer',
        ],
      }),
    );
    expect(store.items('cities')).toEqual([{ name: 'Lyon', country: 'FR' }]);
    expect(updates).toEqual([]);
  });

  it('reports at most 20 problems', async () => {
    const items = Array.from({ length: 30 }, () => ({ name: false }));
    const outcome = JSON.parse(
      (await call('set_dataset', { name: 'cities', items })).content as string,
    );
    expect(outcome.error).toBe(
      '30 items do not match the schema of dataset "cities"; nothing was changed',
    );
    expect(outcome.problems).toHaveLength(20);
    expect(outcome.problems[19]).toBe('item 19: /name: must be string');
  });

  it('refuses a locked dataset, naming the iterating task', async () => {
    store.lock('cities', 'weather');
    store.lock('cities', 'later');
    expect(await call('set_dataset', { name: 'cities', items: [] })).toEqual(
      error('dataset "cities" is locked: task "weather" is already iterating it'),
    );
  });

  it('refuses an undeclared dataset, listing the declared ones', async () => {
    const message = 'dataset "towns" is not declared; declared datasets: cities, notes';
    expect(await call('set_dataset', { name: 'towns', items: [] })).toEqual(error(message));
    expect(await call('dataset_sample', { name: 'towns' })).toEqual(error(message));
    expect(await call('dataset_count', { name: 'towns' })).toEqual(error(message));
  });

  it('dataset_sample returns the first items, 5 by default and at most 50', async () => {
    const items = Array.from({ length: 60 }, (_, index) => index);
    await call('set_dataset', { name: 'notes', items });
    expect(await call('dataset_sample', { name: 'notes' })).toEqual(
      ok({ dataset: 'notes', total: 60, items: [0, 1, 2, 3, 4] }),
    );
    expect(await call('dataset_sample', { name: 'notes', count: 2 })).toEqual(
      ok({ dataset: 'notes', total: 60, items: [0, 1] }),
    );
    expect(await call('dataset_sample', { name: 'notes', count: 51 })).toEqual({
      content: '{"status":"error","problems":["/count: must be <= 50"]}',
      isError: true,
    });
  });

  it('dataset_count counts items', async () => {
    expect(await call('dataset_count', { name: 'cities' })).toEqual(
      ok({ dataset: 'cities', count: 1 }),
    );
  });

  it('result_to_dataset moves a stored array into a dataset, validated', async () => {
    const users = Array.from({ length: 500 }, (_, index) => ({ name: `city ${index}` }));
    const stored = await results.save(JSON.stringify(users));
    expect(await call('result_to_dataset', { id: stored.id, dataset_name: 'cities' })).toEqual(
      ok({ dataset: 'cities', count: 500 }),
    );
    expect(store.items('cities')[499]).toEqual({ name: 'city 499', country: 'FR' });
    const invalid = await results.save(JSON.stringify([{ name: 1 }]));
    expect(await call('result_to_dataset', { id: invalid.id, dataset_name: 'cities' })).toEqual(
      error('1 item does not match the schema of dataset "cities"; nothing was changed', {
        problems: ['item 0: /name: must be string'],
      }),
    );
  });

  it('result_to_dataset refuses non-array results and unknown ids', async () => {
    const object = await results.save('{"a":1}');
    expect(await call('result_to_dataset', { id: object.id, dataset_name: 'notes' })).toEqual(
      error(
        `result "${object.id}" is an object, not an array: only array results can become a dataset`,
      ),
    );
    expect(await call('result_to_dataset', { id: 'result_77', dataset_name: 'notes' })).toEqual(
      error('no stored result "result_77"'),
    );
  });
});
