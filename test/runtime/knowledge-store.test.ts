import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { itemIdOf, iteratedSummary, KnowledgeStore } from '../../src/runtime/knowledge-store.ts';
import { citiesStore, emptyStore, queryCities, RECORDS } from './query-fixture.ts';
import { temporaryDirectorySync } from '../helpers/temp-dir.ts';

describe('itemIdOf', () => {
  it('takes a scalar id, name or key, in that order', () => {
    expect(itemIdOf({ id: 'a', name: 'b', key: 'c' }, 0)).toBe('a');
    expect(itemIdOf({ name: 'b', key: 'c' }, 0)).toBe('b');
    expect(itemIdOf({ key: 'c' }, 0)).toBe('c');
    expect(itemIdOf({ id: 42 }, 0)).toBe('42');
    expect(itemIdOf({ id: false }, 0)).toBe('false');
  });

  it('falls back to item_<index> for non-scalar ids and non-object items', () => {
    expect(itemIdOf({ id: { x: 1 }, name: 'b' }, 5)).toBe('b');
    expect(itemIdOf({ id: null }, 5)).toBe('item_5');
    expect(itemIdOf({ id: ['a'] }, 6)).toBe('item_6');
    expect(itemIdOf('Rome', 7)).toBe('item_7');
    expect(itemIdOf(['a'], 8)).toBe('item_8');
    expect(itemIdOf(null, 9)).toBe('item_9');
  });
});

describe('iteratedSummary', () => {
  it('says how many items succeeded and failed', () => {
    expect(iteratedSummary(10, 'cities', 8, 2)).toBe(
      'iterated over 10 items of dataset cities: 8 succeeded, 2 failed',
    );
  });
});

describe('KnowledgeStore', () => {
  it('keeps iterated records in index order and replaces a record for the same index', () => {
    const store = emptyStore();
    store.recordIteration('t', { index: 1, item: { id: 'b' }, status: 'failed', error: 'x' });
    store.recordIteration('t', { index: 0, item: { id: 'a' }, status: 'succeeded', output: 1 });
    store.recordIteration('t', { index: 1, item: { id: 'b' }, status: 'succeeded', output: 2 });
    expect(store.get('t')).toEqual({
      iterated: true,
      summary: '',
      records: [
        { index: 0, item_id: 'a', status: 'succeeded', output: 1 },
        { index: 1, item_id: 'b', status: 'succeeded', output: 2 },
      ],
    });
  });

  it('keeps iterated records as JSON lines in a file of the run folder, removed by dispose', () => {
    const folder = temporaryDirectorySync('knowledge-run');
    const store = new KnowledgeStore(folder);
    store.recordIteration('t', { index: 1, item: { id: 'b' }, status: 'failed', error: 'x' });
    store.recordIteration('t', { index: 0, item: 'a', status: 'succeeded', output: { n: 1 } });
    const [knowledgeFolder] = readdirSync(folder);
    expect(knowledgeFolder).toMatch(/^knowledge-/);
    // Appends wait in memory until a read (or 64 KB of them) writes them.
    expect(store.get('t')).toMatchObject({
      iterated: true,
      records: [{ index: 0 }, { index: 1 }],
    });
    const lines = readFileSync(join(folder, knowledgeFolder!, 'iterations.jsonl'), 'utf8');
    expect(lines).toBe(
      '{"index":1,"item_id":"b","status":"failed","output":null,"error":"x"}' +
        '{"index":0,"item_id":"item_0","status":"succeeded","output":{"n":1}}',
    );
    expect(store.recordCount('t')).toBe(2);
    store.dispose();
    expect(readdirSync(folder)).toEqual([]);
  });

  it('reads a record again after it was recorded anew, not the one it last read', () => {
    const store = emptyStore();
    store.recordIteration('t', { index: 0, item: 'a', status: 'failed', error: 'x' });
    const first = store.get('t');
    store.recordIteration('t', { index: 0, item: 'a', status: 'succeeded', output: 5 });
    expect(first).toEqual({
      iterated: true,
      summary: '',
      records: [{ index: 0, item_id: 'item_0', status: 'failed', output: null, error: 'x' }],
    });
    expect(store.get('t')).toEqual({
      iterated: true,
      summary: '',
      records: [{ index: 0, item_id: 'item_0', status: 'succeeded', output: 5 }],
    });
  });

  it('restores what a worker is handed, once for the same completed task', () => {
    const store = emptyStore();
    const records = [{ index: 0, item_id: 'a', status: 'succeeded' as const, output: 1 }];
    store.restore('t', { iterated: true, summary: 'one item', records });
    store.restore('t', { iterated: true, summary: 'one item', records });
    expect(store.get('t')).toEqual({ iterated: true, summary: 'one item', records });
    expect(store.recordCount('t')).toBe(1);
    expect(store.recordCount('other')).toBe(0);
  });

  it('stores a plain task with a null output when it has none', () => {
    const store = emptyStore();
    store.recordTask('plain', { summary: 'done', output: undefined });
    expect(store.get('plain')).toEqual({ iterated: false, summary: 'done', output: null });
    expect(store.has('plain')).toBe(true);
    expect(store.has('other')).toBe(false);
  });
});

describe('query_task_output access', () => {
  const store = citiesStore();

  it('refuses a task that is not an ancestor of the caller', () => {
    const result = store.queryTaskOutput(
      { task: 'cities' },
      { caller: 'summary', isAncestor: () => false, isCompleted: () => true },
    );
    expect(result).toEqual({
      status: 'error',
      error: 'task "cities" is not a dependency of "summary"',
    });
  });

  it('refuses an ancestor that has not completed', () => {
    const result = store.queryTaskOutput(
      { task: 'cities' },
      { caller: 'summary', isAncestor: () => true, isCompleted: () => false },
    );
    expect(result).toEqual({ status: 'error', error: 'task "cities" has not completed' });
  });

  it('treats a completed ancestor with nothing recorded as not completed', () => {
    const result = store.queryTaskOutput(
      { task: 'ghost' },
      { caller: 'summary', isAncestor: () => true, isCompleted: () => true },
    );
    expect(result).toEqual({ status: 'error', error: 'task "ghost" has not completed' });
  });
});

describe('query_task_output on a non-iterated task', () => {
  const store = citiesStore();
  const context = { caller: 'summary', isAncestor: () => true, isCompleted: () => true };

  it('returns the output and summary', () => {
    expect(store.queryTaskOutput({ task: 'report' }, context)).toEqual({
      status: 'ok',
      task: 'report',
      iterated: false,
      output: { pages: 3 },
      summary: 'wrote the report',
    });
  });

  it('says which other parameters were ignored', () => {
    expect(store.queryTaskOutput({ task: 'report', limit: 5 }, context)).toEqual({
      status: 'ok',
      task: 'report',
      iterated: false,
      output: { pages: 3 },
      summary: 'wrote the report',
      note: 'task "report" is not iterated, so limit was ignored',
    });
    const result = store.queryTaskOutput(
      { task: 'report', filters: [], order_by: 'x', aggregate: { op: 'count' } },
      context,
    );
    expect(result.note).toBe(
      'task "report" is not iterated, so filters, order_by, aggregate were ignored',
    );
  });
});

describe('query_task_output on an iterated task', () => {
  it('lists records in index order with the default paging', () => {
    expect(queryCities({})).toEqual({
      status: 'ok',
      task: 'cities',
      total: 5,
      offset: 0,
      limit: 20,
      items: [RECORDS.paris, RECORDS.berlin, RECORDS.failed, RECORDS.rome, RECORDS.zurich],
    });
  });
});
