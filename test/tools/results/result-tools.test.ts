import { beforeAll, describe, expect, it } from 'vitest';
import type { AgentTool } from '../../../src/tools/builtins/agent-tool.ts';
import { ResultStore, resultToolsFor } from '../../../src/tools/results/index.ts';
import { toolCaller } from '../builtins/call-tool.ts';
import { temporaryDirectory } from '../../helpers/temp-dir.ts';

let base: string;
let tools: Map<string, AgentTool>;
const users = Array.from({ length: 250 }, (_, index) => ({ id: index, name: `user ${index}` }));
const document = {
  meta: { page: 1, tags: ['a', 'b'] },
  data: { items: [{ name: 'first' }, { name: 'second' }] },
  big: Array.from({ length: 2000 }, (_, index) => `entry number ${index}`),
};
const prose = 'The quick brown fox. '.repeat(1000);

beforeAll(async () => {
  base = await temporaryDirectory('result-tools');
  const store = await ResultStore.open(base);
  await store.save(JSON.stringify(users));
  await store.save(JSON.stringify(document));
  await store.save(prose);
  tools = new Map(resultToolsFor(store).map((tool) => [tool.definition.name, tool]));
});

const call = toolCaller(() => tools);

const ok = (fields: Record<string, unknown>) => ({
  content: JSON.stringify({ status: 'ok', ...fields }),
  isError: false,
});
const error = (message: string) => ({
  content: JSON.stringify({ status: 'error', error: message }),
  isError: true,
});

describe('result tools', () => {
  it('are offered in order', () => {
    expect([...tools.keys()]).toEqual([
      'result_info',
      'result_items',
      'result_get',
      'result_keys',
      'result_chunk',
    ]);
  });

  it('result_info describes each kind of result', async () => {
    const usersText = JSON.stringify(users);
    expect(await call('result_info', { id: 'result_1' })).toEqual(
      ok({
        result_id: 'result_1',
        type: 'array',
        total_items: 250,
        total_bytes: usersText.length,
        total_chars: usersText.length,
      }),
    );
    const documentText = JSON.stringify(document);
    expect(await call('result_info', { id: 'result_2' })).toEqual(
      ok({
        result_id: 'result_2',
        type: 'object',
        total_keys: 3,
        total_bytes: documentText.length,
        total_chars: documentText.length,
      }),
    );
    expect(await call('result_info', { id: 'result_3' })).toEqual(
      ok({
        result_id: 'result_3',
        type: 'text',
        total_bytes: prose.length,
        total_chars: prose.length,
      }),
    );
    expect(await call('result_info', { id: 'result_9' })).toEqual(
      error('no stored result "result_9"'),
    );
  });

  it('result_items pages an array, at most 100 at a time', async () => {
    expect(await call('result_items', { id: 'result_1', offset: 248, count: 5 })).toEqual(
      ok({ result_id: 'result_1', total_items: 250, offset: 248, items: users.slice(248) }),
    );
    expect(await call('result_items', { id: 'result_1', count: 101 })).toEqual({
      content: '{"status":"error","problems":["/count: must be <= 100"]}',
      isError: true,
    });
    expect(await call('result_items', { id: 'result_2' })).toEqual(
      error('result "result_2" is an object, not an array: use result_keys and result_get'),
    );
    expect(await call('result_items', { id: 'result_3' })).toEqual(
      error('result "result_3" is text, not an array: use result_chunk'),
    );
  });

  it('result_get follows dot paths through objects and arrays', async () => {
    expect(await call('result_get', { id: 'result_2', path: 'data.items.1.name' })).toEqual(
      ok({ result_id: 'result_2', path: 'data.items.1.name', value: 'second' }),
    );
    expect(await call('result_get', { id: 'result_1', path: '3' })).toEqual(
      ok({ result_id: 'result_1', path: '3', value: users[3] }),
    );
    expect(await call('result_get', { id: 'result_2', path: 'meta.owner' })).toEqual(
      error('path "meta.owner" not found in result "result_2": no "owner" at "meta"'),
    );
    expect(await call('result_get', { id: 'result_2', path: 'nope' })).toEqual(
      error('path "nope" not found in result "result_2": no "nope" at the top level'),
    );
    expect(await call('result_get', { id: 'result_3', path: 'x' })).toEqual(
      error('result "result_3" is text, not JSON: use result_chunk'),
    );
  });

  it('result_get summarises a value too large to return whole', async () => {
    const outcome = await call('result_get', { id: 'result_2', path: 'big' });
    expect(JSON.parse(outcome.content as string)).toEqual({
      status: 'partial',
      result_id: 'result_2',
      path: 'big',
      type: 'array',
      total_items: 2000,
      sample: document.big.slice(0, 5),
      total_bytes: JSON.stringify(document.big).length,
      note: 'value too large to return whole: narrow the path with result_keys and result_get',
    });
  });

  it('result_keys lists object keys, at the top or at a path', async () => {
    expect(await call('result_keys', { id: 'result_2' })).toEqual(
      ok({ result_id: 'result_2', path: '', type: 'object', keys: ['meta', 'data', 'big'] }),
    );
    expect(await call('result_keys', { id: 'result_2', path: 'meta' })).toEqual(
      ok({ result_id: 'result_2', path: 'meta', type: 'object', keys: ['page', 'tags'] }),
    );
    expect(await call('result_keys', { id: 'result_2', path: 'meta.tags' })).toEqual(
      ok({ result_id: 'result_2', path: 'meta.tags', type: 'array', total_items: 2 }),
    );
    expect(await call('result_keys', { id: 'result_2', path: 'meta.page' })).toEqual(
      error('value at "meta.page" is a number, which has no keys: use result_get'),
    );
  });

  it('result_chunk returns plain text from an offset, at most 16,000 characters', async () => {
    expect(await call('result_chunk', { id: 'result_3', offset: 4, length: 11 })).toEqual({
      content: 'quick brown',
      isError: false,
    });
    const whole = await call('result_chunk', { id: 'result_3' });
    expect((whole.content as string).length).toBe(16_000);
    expect(await call('result_chunk', { id: 'result_3', length: 16_001 })).toEqual({
      content: '{"status":"error","problems":["/length: must be <= 16000"]}',
      isError: true,
    });
    expect(await call('result_chunk', { id: 'result_3', offset: 21_000 })).toEqual(
      error('offset 21000 is past the end of result "result_3" (21000 characters)'),
    );
  });
});
