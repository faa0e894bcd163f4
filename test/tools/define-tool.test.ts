import { describe, expect, it } from 'vitest';
import { defineTool, parseToolArguments } from '../../src/tools/define-tool.ts';
import { toolResult } from '../../src/tools/tool-result.ts';

const tool = defineTool({
  name: 'example',
  description: 'An example.',
  parameters: {
    type: 'object',
    properties: {
      items: { type: 'array', items: { type: 'string', minLength: 1 }, minItems: 1, maxItems: 2 },
      mode: { enum: ['fast', 'slow'] },
      count: { type: 'integer', default: 5 },
      nested: { type: 'object', properties: { flag: { type: 'boolean' } } },
    },
    required: ['items'],
    additionalProperties: false,
  },
});

describe('defineTool', () => {
  it('gives the definition as offered to models', () => {
    expect(tool.name).toBe('example');
    expect(tool.description).toBe('An example.');
  });
});

describe('parseToolArguments', () => {
  it('parses valid arguments and applies defaults', () => {
    expect(parseToolArguments(tool, '{"items":["a"]}')).toEqual({
      ok: true,
      args: { items: ['a'], count: 5 },
    });
  });

  it("gives each call its own copy of an object default, never the schema's", () => {
    const withObjectDefault = defineTool({
      name: 'object_default',
      description: 'An object default.',
      parameters: {
        type: 'object',
        properties: { options: { type: 'object', default: { depth: 1 } } },
      },
    });
    const first = parseToolArguments(withObjectDefault, '{}');
    if (!first.ok) throw new Error(first.problems.join('; '));
    (first.args.options as { depth: number }).depth = 9;
    expect(parseToolArguments(withObjectDefault, '{}')).toEqual({
      ok: true,
      args: { options: { depth: 1 } },
    });
    expect(withObjectDefault.parameters).toEqual({
      type: 'object',
      properties: { options: { type: 'object', default: { depth: 1 } } },
    });
  });

  it('treats an empty string as no arguments', () => {
    expect(parseToolArguments(tool, '  ')).toEqual({
      ok: false,
      problems: ["/: must have required property 'items'"],
    });
  });

  it('reports malformed JSON as one problem at the root', () => {
    const parsed = parseToolArguments(tool, '{"items": [');
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.problems).toHaveLength(1);
    expect(parsed.problems[0]).toMatch(/^\/: arguments are not valid JSON: .+/);
  });

  it('lists every schema problem as path: message', () => {
    const parsed = parseToolArguments(
      tool,
      JSON.stringify({ items: ['a', '', 'c'], mode: 'warp', nested: { flag: 'yes' }, extra: 1 }),
    );
    expect(parsed).toEqual({
      ok: false,
      problems: [
        "/: must NOT have additional property 'extra'",
        '/items: must have at most 2 items',
        '/items/1: must have at least 1 character',
        '/mode: must be equal to one of the allowed values: fast, slow',
        '/nested/flag: must be boolean',
      ],
    });
  });

  it('rejects a non-object at the root', () => {
    expect(parseToolArguments(tool, '[1]')).toEqual({ ok: false, problems: ['/: must be object'] });
  });
});

describe('toolResult', () => {
  it('builds compact ok, error and other-status results', () => {
    expect(toolResult.ok({ subtasks: [] })).toBe('{"status":"ok","subtasks":[]}');
    expect(toolResult.ok()).toBe('{"status":"ok"}');
    expect(toolResult.error('no plan', { problems: ['/: x'] })).toBe(
      '{"status":"error","error":"no plan","problems":["/: x"]}',
    );
    expect(toolResult.status('exhausted', { total: 2, processed: 2 })).toBe(
      '{"status":"exhausted","total":2,"processed":2}',
    );
  });
});
