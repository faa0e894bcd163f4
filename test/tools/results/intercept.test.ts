import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { httpOutcome } from '../../../src/tools/builtins/http-tools.ts';
import { ResultStore, interceptLargeResult } from '../../../src/tools/results/index.ts';
import { temporaryDirectory } from '../../helpers/temp-dir.ts';

let directory: string;
let store: ResultStore;

beforeEach(async () => {
  directory = join(await temporaryDirectory('results'), 'results');
  store = await ResultStore.open(directory);
});

const ok = (content: string) => ({ content, isError: false });
const range = (count: number) => Array.from({ length: count }, (_, index) => ({ n: index }));

describe('interceptLargeResult', () => {
  it('stores an array of 20 items and shows type, total and the first 5', async () => {
    const text = JSON.stringify(range(20));
    const { outcome, stored } = await interceptLargeResult(ok(text), { store });
    expect(outcome).toEqual(
      ok(
        '{"status":"partial","result_id":"result_1","type":"array","total_items":20,"sample":[{"n":0},{"n":1},{"n":2},{"n":3},{"n":4}]}',
      ),
    );
    expect(stored?.id).toBe('result_1');
    expect(await readFile(join(directory, 'result_1.json'), 'utf8')).toBe(text);
  });

  it('leaves an array of 19 small items alone', async () => {
    const original = ok(JSON.stringify(range(19)));
    expect(await interceptLargeResult(original, { store })).toEqual({ outcome: original });
    await expect(readdir(directory)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('stores an object over the threshold and shows its keys and size', async () => {
    const text = JSON.stringify({
      status: 200,
      content_type: 'application/json',
      body: 'x'.repeat(200),
    });
    const { outcome } = await interceptLargeResult(ok(text), { store, thresholdBytes: 100 });
    expect(outcome).toEqual(
      ok(
        `{"status":"partial","result_id":"result_1","type":"object","keys":["status","content_type","body"],"total_bytes":${text.length}}`,
      ),
    );
  });

  it('counts the threshold in UTF-8 bytes, not characters', async () => {
    const text = 'é'.repeat(60);
    expect((await interceptLargeResult(ok(text), { store, thresholdBytes: 119 })).stored?.id).toBe(
      'result_1',
    );
    expect(
      (await interceptLargeResult(ok(text), { store, thresholdBytes: 120 })).stored,
    ).toBeUndefined();
  });

  it('stores text over the default 64,000 bytes and shows its first 2,000 characters', async () => {
    const text = `${'a'.repeat(2000)}${'b'.repeat(62_001)}`;
    const { outcome } = await interceptLargeResult(ok(text), { store });
    expect(outcome).toEqual(
      ok(
        `{"status":"partial","result_id":"result_1","type":"text","preview":"${'a'.repeat(2000)}","total_bytes":64001}`,
      ),
    );
    expect(await interceptLargeResult(ok('c'.repeat(64_000)), { store })).toEqual({
      outcome: ok('c'.repeat(64_000)),
    });
  });

  it('passes errors, rich content and the result tools through', async () => {
    const big = JSON.stringify(range(50));
    const failure = { content: big, isError: true };
    expect(await interceptLargeResult(failure, { store })).toEqual({ outcome: failure });
    const rich = { content: [{ type: 'text' as const, text: big }], isError: false };
    expect(await interceptLargeResult(rich, { store })).toEqual({ outcome: rich });
    expect(await interceptLargeResult(ok(big), { store, toolName: 'result_items' })).toEqual({
      outcome: ok(big),
    });
  });

  // Most runs store no large result: opening the store costs no folder.
  it('makes the results folder when the first result is stored, not when opened', async () => {
    await expect(readdir(directory)).rejects.toMatchObject({ code: 'ENOENT' });
    const { stored } = await interceptLargeResult(ok(JSON.stringify(range(30))), { store });
    expect(await readdir(directory)).toEqual([`${stored?.id}.json`]);
  });

  it('numbers results per run and continues after a reopen', async () => {
    const big = JSON.stringify(range(30));
    await interceptLargeResult(ok(big), { store });
    await interceptLargeResult(ok(big), { store });
    const reopened = await ResultStore.open(directory);
    const { stored } = await interceptLargeResult(ok(big), { store: reopened });
    expect(stored?.id).toBe('result_3');
    expect((await reopened.get('result_1'))?.type).toBe('array');
  });

  it('keeps the type of a text result across a reopen', async () => {
    const text = 'plain '.repeat(20_000);
    await interceptLargeResult(ok(text), { store });
    const reopened = await ResultStore.open(directory);
    const stored = await reopened.get('result_1');
    expect([stored?.type, stored?.text]).toEqual(['text', text]);
  });
});

describe('interception of HTTP results', () => {
  it('stores the body array of an HTTP result so it can become a dataset', async () => {
    const dir = await temporaryDirectory('http-intercept');
    const store = await ResultStore.open(dir);
    const body = Array.from({ length: 25 }, (_, index) => ({ id: index }));
    const outcome = httpOutcome({
      ok: true,
      status: 200,
      contentType: 'application/json',
      body,
      truncated: false,
      url: 'http://127.0.0.1/users',
    });
    const intercepted = await interceptLargeResult(outcome, { store });
    expect(JSON.parse(intercepted.outcome.content as string)).toEqual({
      status: 'partial',
      result_id: 'result_1',
      type: 'array',
      http_status: 200,
      content_type: 'application/json',
      total_items: 25,
      sample: body.slice(0, 5),
    });
    expect((await store.get('result_1'))?.value).toEqual(body);
  });
});
