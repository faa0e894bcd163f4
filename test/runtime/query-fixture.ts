/** A completed iterated task `cities` (5 items, one failed) and a plain task `report`. */
import { KnowledgeStore } from '../../src/runtime/knowledge-store.ts';
import type { QueryTaskOutputArgs } from '../../src/runtime/query-task-output.ts';
import { temporaryDirectorySync } from '../helpers/temp-dir.ts';

/** The run folder of this test file's stores (their records' files), removed after its tests. */
const runFolder = temporaryDirectorySync('knowledge');

/** An empty store whose records' file lies in this test file's run folder. */
export function emptyStore(): KnowledgeStore {
  return new KnowledgeStore(runFolder);
}

export function citiesStore(): KnowledgeStore {
  const store = emptyStore();
  // Recorded out of order on purpose: queries always see index order.
  store.recordIteration('cities', {
    index: 4,
    item: { name: { first: 'x' } },
    status: 'succeeded',
    output: { city: 'Zürich', population: 400000, tags: ['ch', { a: 1 }], score: 9.5 },
  });
  store.recordIteration('cities', {
    index: 0,
    item: { name: 'Paris' },
    status: 'succeeded',
    output: {
      city: 'Paris',
      population: 2100000,
      tags: ['capital', 'eu'],
      address: { country: 'FR' },
      score: 9.5,
      visited: true,
    },
  });
  store.recordIteration('cities', {
    index: 1,
    item: { id: 42 },
    status: 'succeeded',
    output: {
      city: 'berlin',
      population: 3600000,
      tags: ['eu'],
      address: { country: 'DE' },
      score: 7,
      visited: false,
    },
  });
  store.recordIteration('cities', {
    index: 2,
    item: { key: 'k2' },
    status: 'failed',
    error: 'timeout',
  });
  store.recordIteration('cities', {
    index: 3,
    item: 'Rome',
    status: 'succeeded',
    output: {
      city: 'Rome',
      population: null,
      tags: [],
      address: { country: 'IT' },
      score: '8',
      visited: true,
    },
  });
  store.setIteratedSummary(
    'cities',
    'iterated over 5 items of dataset cities: 4 succeeded, 1 failed',
  );
  store.recordTask('report', { summary: 'wrote the report', output: { pages: 3 } });
  return store;
}

export const RECORDS = {
  paris: {
    index: 0,
    item_id: 'Paris',
    status: 'succeeded',
    output: {
      city: 'Paris',
      population: 2100000,
      tags: ['capital', 'eu'],
      address: { country: 'FR' },
      score: 9.5,
      visited: true,
    },
  },
  berlin: {
    index: 1,
    item_id: '42',
    status: 'succeeded',
    output: {
      city: 'berlin',
      population: 3600000,
      tags: ['eu'],
      address: { country: 'DE' },
      score: 7,
      visited: false,
    },
  },
  failed: { index: 2, item_id: 'k2', status: 'failed', output: null, error: 'timeout' },
  rome: {
    index: 3,
    item_id: 'item_3',
    status: 'succeeded',
    output: {
      city: 'Rome',
      population: null,
      tags: [],
      address: { country: 'IT' },
      score: '8',
      visited: true,
    },
  },
  zurich: {
    index: 4,
    item_id: 'item_4',
    status: 'succeeded',
    output: { city: 'Zürich', population: 400000, tags: ['ch', { a: 1 }], score: 9.5 },
  },
} as const;

const everything = { caller: 'summary', isAncestor: () => true, isCompleted: () => true };

/** Queries `cities` as task `summary`, which may see it. */
export function queryCities(
  args: Omit<QueryTaskOutputArgs, 'task'>,
  store = citiesStore(),
): Record<string, unknown> {
  return store.queryTaskOutput({ task: 'cities', ...args }, everything);
}

/** The indexes of the items a query returned. */
export function indexes(result: Record<string, unknown>): number[] {
  return (result.items as Array<{ index: number }>).map((item) => item.index);
}
