import { describe, expect, it } from 'vitest';
import type { QueryFilter } from '../../src/runtime/query-filters.ts';
import { indexes, queryCities } from './query-fixture.ts';

const match = (...filters: QueryFilter[]): number[] => indexes(queryCities({ filters }));
const failure = (...filters: QueryFilter[]) => queryCities({ filters });

describe('query_task_output filters', () => {
  it('compares strings for equality', () => {
    expect(match({ field: 'city', op: 'eq', value: 'Paris' })).toEqual([0]);
    expect(match({ field: 'city', op: 'ne', value: 'Paris' })).toEqual([1, 2, 3, 4]);
  });

  it('compares numbers numerically, also against numeric strings on either side', () => {
    expect(match({ field: 'population', op: 'eq', value: '3600000' })).toEqual([1]);
    expect(match({ field: 'population', op: 'gt', value: '1e6' })).toEqual([0, 1]);
    expect(match({ field: 'score', op: 'gte', value: 8 })).toEqual([0, 3, 4]);
    expect(match({ field: 'score', op: 'lt', value: 8 })).toEqual([1]);
    expect(match({ field: 'score', op: 'lte', value: '7' })).toEqual([1]);
  });

  it('orders strings by code point', () => {
    // 'b' (U+0062) sorts after 'P', 'R' and 'Z': no locale folding.
    expect(match({ field: 'city', op: 'gt', value: 'Paris' })).toEqual([1, 3, 4]);
    expect(match({ field: 'city', op: 'lt', value: 'Rome' })).toEqual([0]);
    expect(match({ field: 'city', op: 'gte', value: 'Zürich' })).toEqual([1, 4]);
  });

  it('follows dot paths into objects and arrays', () => {
    expect(match({ field: 'address.country', op: 'eq', value: 'DE' })).toEqual([1]);
    expect(match({ field: 'tags.0', op: 'eq', value: 'eu' })).toEqual([1]);
    expect(match({ field: 'tags.1', op: 'eq', value: 'eu' })).toEqual([0]);
    expect(match({ field: 'tags.1.a', op: 'eq', value: 1 })).toEqual([4]);
  });

  it('addresses the record with index, item_id and status', () => {
    expect(match({ field: 'status', op: 'eq', value: 'failed' })).toEqual([2]);
    expect(match({ field: 'index', op: 'lt', value: 2 })).toEqual([0, 1]);
    expect(match({ field: 'item_id', op: 'eq', value: 42 })).toEqual([1]);
    expect(match({ field: 'item_id', op: 'eq', value: 'item_3' })).toEqual([3]);
  });

  it('reads output.FIELD from the output the records show', () => {
    expect(match({ field: 'output.city', op: 'eq', value: 'Rome' })).toEqual([3]);
  });

  it('compares booleans with eq and ne only', () => {
    expect(match({ field: 'visited', op: 'eq', value: true })).toEqual([0, 3]);
    expect(match({ field: 'visited', op: 'ne', value: true })).toEqual([1, 2, 4]);
    expect(failure({ field: 'visited', op: 'gt', value: true })).toEqual({
      status: 'error',
      error: 'filter 0: booleans can only be compared with eq or ne, not "gt"',
    });
    expect(failure({ field: 'visited', op: 'gte', value: 1 })).toEqual({
      status: 'error',
      error:
        'filter 0: cannot compare "visited" (boolean true in item 0) with number 1 using "gte"; booleans can only be compared with eq or ne',
    });
  });

  it('tests substrings case-sensitively and array membership with deep equality', () => {
    expect(match({ field: 'city', op: 'contains', value: 'erl' })).toEqual([1]);
    expect(match({ field: 'city', op: 'contains', value: 'paris' })).toEqual([]);
    expect(match({ field: 'tags', op: 'contains', value: 'eu' })).toEqual([0, 1]);
    expect(match({ field: 'tags', op: 'contains', value: { a: 1 } })).toEqual([4]);
  });

  it('rejects contains on other types and non-string values for strings', () => {
    expect(failure({ field: 'population', op: 'contains', value: '2' })).toEqual({
      status: 'error',
      error:
        'filter 0: "contains" works on strings and arrays, but "population" is number 2100000 in item 0; use eq, ne, gt, lt, gte or lte',
    });
    expect(failure({ field: 'city', op: 'contains', value: 5 })).toEqual({
      status: 'error',
      error: 'filter 0: "contains" on string field "city" needs a string value, got number',
    });
  });

  it('lets a missing field match only ne', () => {
    expect(match({ field: 'nosuch', op: 'eq', value: 1 })).toEqual([]);
    expect(match({ field: 'nosuch', op: 'ne', value: 1 })).toEqual([0, 1, 2, 3, 4]);
    expect(match({ field: 'nosuch', op: 'contains', value: 'x' })).toEqual([]);
    expect(match({ field: 'city.x', op: 'gt', value: 'a' })).toEqual([]);
    expect(match({ field: 'tags.x', op: 'eq', value: 'eu' })).toEqual([]);
  });

  it('treats a null field as a value for eq and ne and as no value for ordering', () => {
    expect(match({ field: 'population', op: 'eq', value: null })).toEqual([3]);
    expect(match({ field: 'population', op: 'ne', value: null })).toEqual([0, 1, 2, 4]);
    expect(match({ field: 'population', op: 'gt', value: 1000000 })).toEqual([0, 1]);
  });

  it('requires all filters to match', () => {
    expect(
      match(
        { field: 'tags', op: 'contains', value: 'eu' },
        { field: 'visited', op: 'eq', value: false },
      ),
    ).toEqual([1]);
  });

  it('reports incomparable types with what to do', () => {
    expect(failure({ field: 'city', op: 'gt', value: 5 })).toEqual({
      status: 'error',
      error:
        'filter 0: cannot compare "city" (string "Paris" in item 0) with number 5 using "gt"; use a string value or filter on another field',
    });
    expect(failure({ field: 'tags', op: 'lt', value: 'x' })).toEqual({
      status: 'error',
      error:
        'filter 0: cannot compare "tags" (array ["capital","eu"] in item 0) with string "x" using "lt"; arrays can only be compared with eq, ne or contains',
    });
  });

  it('tells how to filter inside an object instead of ordering it', () => {
    expect(failure({ field: 'address', op: 'gt', value: 'A' })).toEqual({
      status: 'error',
      error:
        'filter 0: cannot compare "address" (object {"country":"FR"} in item 0) with string "A" using "gt"; objects can only be compared with eq or ne; filter on one of their fields with a dot path',
    });
  });

  it('rejects unknown ops, missing values and unordered values before reading records', () => {
    expect(
      failure(
        { field: 'city', op: 'eq', value: 'Paris' },
        { field: 'city', op: 'like', value: 'P%' },
      ),
    ).toEqual({
      status: 'error',
      error: 'filter 1: unknown op "like"; use one of eq, ne, gt, lt, gte, lte, contains',
    });
    expect(failure({ field: 'city', op: 'eq' })).toEqual({
      status: 'error',
      error: 'filter 0: "value" is required',
    });
    expect(failure({ field: 'city', op: 'gt', value: null })).toEqual({
      status: 'error',
      error: 'filter 0: "gt" needs a number or string value, got null',
    });
    expect(failure({ field: '', op: 'eq', value: 1 })).toEqual({
      status: 'error',
      error: 'filter 0: "field" must be a non-empty dot path',
    });
  });
});

describe('query_task_output item_ids', () => {
  it('narrows to the given ids, numbers matching their text', () => {
    expect(indexes(queryCities({ item_ids: ['Paris', 42, 'nope'] }))).toEqual([0, 1]);
  });

  it('combines with filters', () => {
    const result = queryCities({
      item_ids: ['Paris', '42'],
      filters: [{ field: 'visited', op: 'eq', value: false }],
    });
    expect(indexes(result)).toEqual([1]);
    expect(result.total).toBe(1);
  });
});
