import { describe, expect, it } from 'vitest';
import type { IterationRecord } from '../../src/runtime/knowledge-store.ts';
import { queryRecords } from '../../src/runtime/query-task-output.ts';
import { indexes, queryCities, RECORDS } from './query-fixture.ts';

describe('query_task_output order_by', () => {
  it('sorts ascending with missing and null values last', () => {
    expect(indexes(queryCities({ order_by: 'population' }))).toEqual([4, 0, 1, 2, 3]);
  });

  it('sorts descending and still puts missing values last', () => {
    expect(indexes(queryCities({ order_by: 'population', desc: true }))).toEqual([1, 0, 4, 2, 3]);
  });

  it('is stable: equal values keep index order in both directions', () => {
    // score: 9.5, 7, missing, '8', 9.5 — numbers order before strings.
    expect(indexes(queryCities({ order_by: 'score' }))).toEqual([1, 0, 4, 3, 2]);
    expect(indexes(queryCities({ order_by: 'score', desc: true }))).toEqual([3, 0, 4, 1, 2]);
  });

  it('orders strings by code point and reads dot paths', () => {
    expect(indexes(queryCities({ order_by: 'city' }))).toEqual([0, 3, 4, 1, 2]);
    expect(indexes(queryCities({ order_by: 'address.country' }))).toEqual([1, 0, 3, 2, 4]);
    // 'k2' > 'item_4' > 'item_3' > 'Paris' > '42'
    expect(indexes(queryCities({ order_by: 'item_id', desc: true }))).toEqual([2, 4, 3, 0, 1]);
  });

  it('orders booleans false before true', () => {
    expect(indexes(queryCities({ order_by: 'visited' }))).toEqual([1, 0, 3, 2, 4]);
  });

  it('filters before ordering and paging', () => {
    const result = queryCities({
      filters: [{ field: 'status', op: 'eq', value: 'succeeded' }],
      order_by: 'population',
      desc: true,
      limit: 2,
    });
    expect(result).toEqual({
      status: 'ok',
      task: 'cities',
      total: 4,
      offset: 0,
      limit: 2,
      items: [RECORDS.berlin, RECORDS.paris],
    });
  });
});

describe('query_task_output paging', () => {
  it('returns one page and the total after filters', () => {
    const result = queryCities({ limit: 2, offset: 1 });
    expect(result.total).toBe(5);
    expect(result.offset).toBe(1);
    expect(result.limit).toBe(2);
    expect(indexes(result)).toEqual([1, 2]);
  });

  it('returns no items past the end', () => {
    expect(queryCities({ offset: 10 })).toEqual({
      status: 'ok',
      task: 'cities',
      total: 5,
      offset: 10,
      limit: 20,
      items: [],
    });
  });

  it('defaults to 20 items and allows at most 200', () => {
    const records: IterationRecord[] = Array.from({ length: 250 }, (_, index) => ({
      index,
      item_id: `item_${index}`,
      status: 'succeeded',
      output: { n: index },
    }));
    expect((queryRecords(records, {}).items as unknown[]).length).toBe(20);
    const page = queryRecords(records, { limit: 200, offset: 100 });
    expect((page.items as unknown[]).length).toBe(150);
    expect(page.total).toBe(250);
  });

  it('rejects limits outside 1-200 and negative or fractional offsets', () => {
    const limitError = {
      status: 'error',
      error: 'limit must be a whole number from 1 to 200; page with offset for more',
    };
    expect(queryCities({ limit: 0 })).toEqual(limitError);
    expect(queryCities({ limit: 201 })).toEqual(limitError);
    expect(queryCities({ limit: 2.5 })).toEqual(limitError);
    const offsetError = { status: 'error', error: 'offset must be a whole number of 0 or more' };
    expect(queryCities({ offset: -1 })).toEqual(offsetError);
    expect(queryCities({ offset: 1.5 })).toEqual(offsetError);
  });

  it('rejects an empty order_by', () => {
    expect(queryCities({ order_by: '' })).toEqual({
      status: 'error',
      error: 'order_by must be a non-empty dot path',
    });
  });
});
