import { describe, expect, it } from 'vitest';
import type { IterationRecord } from '../../src/runtime/knowledge-store.ts';
import type { QueryAggregate } from '../../src/runtime/query-aggregate.ts';
import { queryRecords } from '../../src/runtime/query-task-output.ts';
import type { QueryFilter } from '../../src/runtime/query-filters.ts';
import { queryCities, RECORDS } from './query-fixture.ts';

const aggregate = (spec: QueryAggregate, filters?: QueryFilter[]) =>
  queryCities({ aggregate: spec, filters });

describe('query_task_output aggregates', () => {
  it('counts the filtered records and ignores paging', () => {
    expect(
      queryCities({
        aggregate: { op: 'count' },
        filters: [{ field: 'visited', op: 'eq', value: true }],
        limit: 1,
        offset: 3,
      }),
    ).toEqual({ status: 'ok', task: 'cities', result: 2 });
    expect(queryCities({ aggregate: { op: 'count' }, limit: 500, offset: -1 })).toEqual({
      status: 'ok',
      task: 'cities',
      result: 5,
    });
  });

  it('aggregates only the records item_ids selects', () => {
    expect(
      queryCities({ aggregate: { op: 'sum', field: 'population' }, item_ids: ['Paris', '42'] }),
    ).toEqual({
      status: 'ok',
      task: 'cities',
      result: 5700000,
      skipped: 0,
    });
  });

  it('sums numbers and counts the values it skipped', () => {
    expect(aggregate({ op: 'sum', field: 'population' })).toEqual({
      status: 'ok',
      task: 'cities',
      result: 6100000,
      skipped: 2,
    });
  });

  it('averages numbers only, not numeric strings', () => {
    expect(aggregate({ op: 'avg', field: 'score' })).toEqual({
      status: 'ok',
      task: 'cities',
      result: 26 / 3,
      skipped: 2,
    });
  });

  it('gives a null average and a zero sum when no value is numeric', () => {
    expect(aggregate({ op: 'avg', field: 'city' })).toEqual({
      status: 'ok',
      task: 'cities',
      result: null,
      skipped: 5,
    });
    expect(aggregate({ op: 'sum', field: 'nosuch' })).toEqual({
      status: 'ok',
      task: 'cities',
      result: 0,
      skipped: 5,
    });
  });

  it('returns the min and max value with the record holding it', () => {
    expect(aggregate({ op: 'min', field: 'population' })).toEqual({
      status: 'ok',
      task: 'cities',
      result: 400000,
      item: RECORDS.zurich,
    });
    expect(aggregate({ op: 'max', field: 'population' })).toEqual({
      status: 'ok',
      task: 'cities',
      result: 3600000,
      item: RECORDS.berlin,
    });
  });

  it('keeps the first record on a tie and compares strings by code point', () => {
    const withoutRome = [{ field: 'index', op: 'ne', value: 3 }];
    expect(aggregate({ op: 'max', field: 'score' }, withoutRome)).toMatchObject({
      result: 9.5,
      item: { index: 0 },
    });
    expect(aggregate({ op: 'min', field: 'city' })).toMatchObject({
      result: 'Paris',
      item: { index: 0 },
    });
    expect(aggregate({ op: 'max', field: 'city' })).toMatchObject({
      result: 'berlin',
      item: { index: 1 },
    });
  });

  it('gives null min and max when nothing matched', () => {
    expect(aggregate({ op: 'min', field: 'nosuch' })).toEqual({
      status: 'ok',
      task: 'cities',
      result: null,
      item: null,
    });
  });

  it('refuses min and max over a mix of numbers and strings', () => {
    expect(aggregate({ op: 'min', field: 'score' })).toEqual({
      status: 'error',
      error:
        'aggregate "min" on "score" found both numbers and strings; add a filter so only one type remains',
    });
  });

  it('lists distinct values in first-seen order, comparing arrays and objects deeply', () => {
    expect(aggregate({ op: 'distinct', field: 'address.country' })).toEqual({
      status: 'ok',
      task: 'cities',
      result: ['FR', 'DE', 'IT'],
    });
    expect(aggregate({ op: 'distinct', field: 'visited' })).toMatchObject({
      result: [true, false],
    });
    const records: IterationRecord[] = [
      { index: 0, item_id: 'a', status: 'succeeded', output: { o: { x: 1, y: [1, 2] } } },
      { index: 1, item_id: 'b', status: 'succeeded', output: { o: { y: [1, 2], x: 1 } } },
      { index: 2, item_id: 'c', status: 'succeeded', output: { o: { x: 1, y: [2, 1] } } },
      { index: 3, item_id: 'd', status: 'succeeded', output: { o: null } },
    ];
    expect(queryRecords(records, { aggregate: { op: 'distinct', field: 'o' } })).toEqual({
      result: [{ x: 1, y: [1, 2] }, { x: 1, y: [2, 1] }, null],
    });
  });

  it('groups by a field, counting by default, with missing values under null', () => {
    expect(aggregate({ op: 'group_by', group_by: 'visited' })).toEqual({
      status: 'ok',
      task: 'cities',
      groups: [
        { key: true, count: 2, result: 2 },
        { key: false, count: 1, result: 1 },
        { key: null, count: 2, result: 2 },
      ],
    });
  });

  it('applies group_op sum, avg, min and max to a field per group', () => {
    const groups = (groupOp: string, field: string) =>
      (
        aggregate({ op: 'group_by', group_by: 'visited', group_op: groupOp, field }) as {
          groups: Array<{ result: unknown }>;
        }
      ).groups.map((group) => group.result);
    expect(groups('sum', 'population')).toEqual([2100000, 3600000, 400000]);
    expect(groups('avg', 'population')).toEqual([2100000, 3600000, 400000]);
    expect(groups('avg', 'city')).toEqual([null, null, null]);
    expect(groups('min', 'city')).toEqual(['Paris', 'berlin', 'Zürich']);
    expect(groups('max', 'city')).toEqual(['Rome', 'berlin', 'Zürich']);
    expect(groups('max', 'nosuch')).toEqual([null, null, null]);
  });

  it('groups object keys by deep equality', () => {
    const records: IterationRecord[] = [
      { index: 0, item_id: 'a', status: 'succeeded', output: { k: { a: 1, b: 2 }, n: 1 } },
      { index: 1, item_id: 'b', status: 'succeeded', output: { k: { b: 2, a: 1 }, n: 2 } },
    ];
    expect(
      queryRecords(records, {
        aggregate: { op: 'group_by', group_by: 'k', group_op: 'sum', field: 'n' },
      }),
    ).toEqual({ groups: [{ key: { a: 1, b: 2 }, count: 2, result: 3 }] });
  });

  it('explains every malformed aggregate', () => {
    const error = (spec: QueryAggregate) => (aggregate(spec) as { error: string }).error;
    expect(error({ op: 'median', field: 'x' })).toBe(
      'unknown aggregate op "median"; use one of count, sum, avg, min, max, distinct, group_by',
    );
    expect(error({ op: 'sum' })).toBe('aggregate "sum" needs "field" (a dot path into the output)');
    expect(error({ op: 'group_by' })).toBe(
      'aggregate "group_by" needs "group_by" (the field to group on, a dot path)',
    );
    expect(error({ op: 'group_by', group_by: 'visited', group_op: 'distinct' })).toBe(
      'unknown group_op "distinct"; use one of count, sum, avg, min, max',
    );
    expect(error({ op: 'group_by', group_by: 'visited', group_op: 'sum' })).toBe(
      'aggregate "group_by with group_op sum" needs "field" (a dot path into the output)',
    );
    expect(error({ op: 'sum', field: 'population', group_by: 'visited' })).toBe(
      '"group_by" and "group_op" need aggregate op "group_by"; for example {"op":"group_by","group_by":"city","group_op":"sum","field":"population"}',
    );
  });
});
