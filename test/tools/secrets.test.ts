import { describe, expect, it } from 'vitest';
import type { AgentTool } from '../../src/tools/builtins/agent-tool.ts';
import { okOutcome } from '../../src/tools/builtins/agent-tool.ts';
import { defineTool } from '../../src/tools/define-tool.ts';
import {
  redactOutcome,
  secretRedactor,
  substituteSecrets,
  withSecrets,
} from '../../src/tools/secrets.ts';

const SECRETS = { api_key: 'sk-live-123456', quoted: 'pa"ss\\word' };

/** A tool that records its arguments and echoes them back in its result. */
function echoTool(seen: Array<Record<string, unknown>>): AgentTool {
  return {
    definition: defineTool({
      name: 'tools_echo',
      description: 'echo',
      parameters: { type: 'object' },
    }),
    execute(args) {
      seen.push(args);
      return Promise.resolve(okOutcome({ echoed: args }));
    },
  };
}

const context = { signal: new AbortController().signal };

describe('substituteSecrets', () => {
  it('replaces placeholders in every string at any depth, keys untouched', () => {
    const result = substituteSecrets(
      {
        url: 'https://x.test/?key=${secrets.api_key}',
        headers: { Authorization: 'Bearer ${secrets.api_key}', '${secrets.api_key}': 'k' },
        list: ['${secrets.quoted}', 3, null, { deep: 'a ${secrets.api_key} b ${secrets.api_key}' }],
      },
      SECRETS,
    );
    expect(result).toEqual({
      ok: true,
      args: {
        url: 'https://x.test/?key=sk-live-123456',
        headers: { Authorization: 'Bearer sk-live-123456', '${secrets.api_key}': 'k' },
        list: ['pa"ss\\word', 3, null, { deep: 'a sk-live-123456 b sk-live-123456' }],
      },
    });
  });

  it('fails on an unknown name, listing the available names and no value', () => {
    const result = substituteSecrets({ a: '${secrets.token}', b: '${secrets.other}' }, SECRETS);
    expect(result).toEqual({
      ok: false,
      error: 'unknown secret "token", "other" in the arguments; available secrets: api_key, quoted',
    });
    expect(substituteSecrets({ a: '${secrets.x}' }, {})).toEqual({
      ok: false,
      error: 'unknown secret "x" in the arguments; no secrets are available',
    });
  });

  it('shares every branch that holds no placeholder with the arguments given', () => {
    const untouched = { deep: ['plain', { n: 1 }] };
    const args = { url: 'https://x.test/?key=${secrets.api_key}', untouched };
    const result = substituteSecrets(args, SECRETS);
    expect(result).toEqual({
      ok: true,
      args: { url: 'https://x.test/?key=sk-live-123456', untouched: { deep: ['plain', { n: 1 }] } },
    });
    expect(result.ok && result.args.untouched).toBe(untouched);
    expect(args.url).toBe('https://x.test/?key=${secrets.api_key}');
    const plain = { a: 'no placeholder', list: [1, 'two'] };
    expect(substituteSecrets(plain, SECRETS)).toEqual({ ok: true, args: plain });
    expect((substituteSecrets(plain, SECRETS) as { args: unknown }).args).toBe(plain);
  });

  it('leaves text without placeholders alone', () => {
    expect(substituteSecrets({ a: '${vars.x} $secrets.api_key' }, SECRETS)).toEqual({
      ok: true,
      args: { a: '${vars.x} $secrets.api_key' },
    });
  });
});

describe('withSecrets', () => {
  it('executes with real values and redacts them (raw and JSON-escaped) from the result', async () => {
    const seen: Array<Record<string, unknown>> = [];
    const tool = withSecrets(echoTool(seen), SECRETS);
    const outcome = await tool.execute(
      { key: '${secrets.api_key}', pass: '${secrets.quoted}' },
      context,
    );
    expect(seen).toEqual([{ key: 'sk-live-123456', pass: 'pa"ss\\word' }]);
    expect(outcome).toEqual({
      content: '{"status":"ok","echoed":{"key":"••••","pass":"••••"}}',
      isError: false,
    });
  });

  it('returns an error result and does not execute for an unknown secret', async () => {
    const seen: Array<Record<string, unknown>> = [];
    const outcome = await withSecrets(echoTool(seen), SECRETS).execute(
      { key: '${secrets.nope}' },
      context,
    );
    expect(outcome).toEqual({
      content:
        '{"status":"error","error":"unknown secret \\"nope\\" in the arguments; available secrets: api_key, quoted"}',
      isError: true,
    });
    expect(seen).toEqual([]);
  });

  it('without secrets, runs the tool with its arguments and returns its outcome as it is', async () => {
    const seen: Array<Record<string, unknown>> = [];
    const args = { key: 'sk-live-123456' };
    const outcome = await withSecrets(echoTool(seen), {}).execute(args, context);
    expect(seen[0]).toBe(args);
    expect(outcome).toEqual({
      content: '{"status":"ok","echoed":{"key":"sk-live-123456"}}',
      isError: false,
    });
  });

  it('hands a tool whose writes outlive the run placeholders, never values, even for an unknown name', async () => {
    const seen: Array<Record<string, unknown>> = [];
    const tool = withSecrets({ ...echoTool(seen), keepsSecretPlaceholders: true }, SECRETS);
    const outcome = await tool.execute(
      {
        content: 'key ${secrets.api_key}, literal sk-live-123456, ${secrets.nope}',
        nested: [{ pass: 'pa"ss\\word!' }],
      },
      context,
    );
    expect(seen).toEqual([
      {
        content: 'key ${secrets.api_key}, literal ${secrets.api_key}, ${secrets.nope}',
        nested: [{ pass: '${secrets.quoted}!' }],
      },
    ]);
    expect(tool.keepsSecretPlaceholders).toBe(true);
    expect(outcome.isError).toBe(false);
  });

  it('redacts the text parts of rich content', async () => {
    const rich: AgentTool = {
      definition: defineTool({ name: 'rich', description: 'rich', parameters: { type: 'object' } }),
      execute: () =>
        Promise.resolve({
          content: [
            { type: 'text', text: 'key sk-live-123456' },
            { type: 'image', mediaType: 'image/png', data: 'AAAA' },
          ],
          isError: false,
        }),
    };
    expect(await withSecrets(rich, SECRETS).execute({}, context)).toEqual({
      content: [
        { type: 'text', text: 'key ••••' },
        { type: 'image', mediaType: 'image/png', data: 'AAAA' },
      ],
      isError: false,
    });
  });
});

describe('redactOutcome', () => {
  it('redacts the payload that interception may store, not only the content', () => {
    const redacted = redactOutcome(
      {
        content: '{"body":"token s3cr3t-value"}',
        isError: false,
        payload: { text: '"token s3cr3t-value"', beside: { http_status: 200 } },
      },
      secretRedactor(['s3cr3t-value']),
    );
    expect(redacted).toEqual({
      content: '{"body":"token ••••"}',
      isError: false,
      payload: { text: '"token ••••"', beside: { http_status: 200 } },
    });
  });
});

describe('secretRedactor', () => {
  it('masks a secret raw, JSON-escaped and URL-encoded (as an echoed request URL holds it)', () => {
    const redact = secretRedactor(['tok "x"\\9 &y']);
    expect(
      redact(
        [
          'raw tok "x"\\9 &y',
          'json "tok \\"x\\"\\\\9 &y"',
          'uri ?t=tok%20%22x%22%5C9%20%26y',
          'form ?t=tok+%22x%22%5C9+%26y',
        ].join(' | '),
      ),
    ).toBe('raw •••• | json "••••" | uri ?t=•••• | form ?t=••••');
  });
});
