import { describe, expect, it } from 'vitest';
import type { Expr, Span, TemplateExpr, TraversalExpr } from '../../../src/config/ast.ts';
import { isInvalidExpr, parseExpression } from '../../../src/config/syntax/index.ts';

/** `line:column-endLine:endColumn` of a span. */
function at(span: Span): string {
  return `${span.start.line}:${span.start.column}-${span.end.line}:${span.end.column}`;
}

function parse(text: string): Expr {
  const { expr, diagnostics } = parseExpression(text, { file: 'test.hcl' });
  expect(diagnostics).toEqual([]);
  if (expr === undefined) throw new Error('no expression');
  return expr;
}

/** Removes spans so structures can be compared by value. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shape);
  if (value === null || typeof value !== 'object') return value;
  const result: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) {
    if (!key.endsWith('span') && !key.endsWith('Span') && key !== 'labelSpans')
      result[key] = shape(entry);
  }
  return result;
}

function text(value: string) {
  return { kind: 'template', heredoc: false, parts: value === '' ? [] : [{ kind: 'text', value }] };
}

describe('parseExpression literals', () => {
  it.each([
    ['42', 42, '42'],
    ['-5', -5, '-5'],
    ['- 5', -5, '-5'],
    ['1.50', 1.5, '1.50'],
    ['1e3', 1000, '1e3'],
    ['0.1E-2', 0.001, '0.1E-2'],
    ['-2.5e+2', -250, '-2.5e+2'],
  ])('reads the number %s keeping its raw text', (source, value, raw) => {
    expect(shape(parse(source))).toEqual({ kind: 'literal', value, raw });
  });

  it.each([
    ['true', true],
    ['false', false],
    ['null', null],
  ])('reads the keyword %s', (source, value) => {
    expect(shape(parse(source))).toEqual({ kind: 'literal', value });
  });
});

describe('parseExpression quoted templates', () => {
  it.each([
    ['"a\\nb"', 'a\nb'],
    ['"a\\tb"', 'a\tb'],
    ['"a\\rb"', 'a\rb'],
    ['"a\\"b"', 'a"b'],
    ['"a\\\\b"', 'a\\b'],
    ['"\\u00e9"', 'é'],
    ['"\\U0001F600"', '😀'],
    ['"$${x}"', '${x}'],
    ['"%%{x}"', '%{x}'],
    ['"$x and %"', '$x and %'],
    ['""', ''],
  ])('resolves %s', (source, value) => {
    expect(shape(parse(source))).toEqual(text(value));
  });

  it('splits text and interpolations with their spans', () => {
    const expr = parse('"a ${vars.b} c"') as TemplateExpr;
    expect(shape(expr)).toEqual({
      kind: 'template',
      heredoc: false,
      parts: [
        { kind: 'text', value: 'a ' },
        { kind: 'traversal', root: 'vars', steps: [{ kind: 'attr', name: 'b' }] },
        { kind: 'text', value: ' c' },
      ],
    });
    expect(expr.parts.map((part) => at(part.span))).toEqual(['1:2-1:4', '1:6-1:12', '1:13-1:15']);
    expect(at(expr.span)).toBe('1:1-1:16');
  });

  it('allows newlines and comments inside an interpolation', () => {
    expect(shape(parse('"${\n  f(1) # one\n}"'))).toEqual({
      kind: 'template',
      heredoc: false,
      parts: [{ kind: 'call', name: 'f', args: [{ kind: 'literal', value: 1, raw: '1' }] }],
    });
  });

  it('reports an invalid escape at its position', () => {
    const { diagnostics } = parseExpression('"a\\qb"', { file: 'test.hcl' });
    expect(diagnostics.map((d) => [d.message, d.column, d.endColumn])).toEqual([
      [
        'syntax error: invalid escape sequence "\\q"; use \\n, \\r, \\t, \\", \\\\, \\uNNNN or \\UNNNNNNNN',
        3,
        5,
      ],
    ]);
  });
});

describe('parseExpression heredocs', () => {
  it.each([
    ['<<EOT\n  a\n    b\nEOT', '  a\n    b\n'],
    ['<<-EOT\n    a\n      b\n    EOT', 'a\n  b\n'],
    ['<<-EOT\n\t\ta\n\tb\n\tEOT', '\ta\nb\n'],
    ['<<-EOT\n    a\n\t  b\n    \n  EOT', ' a\nb\n    \n'],
    ['<<-EOT\n    a\n\n    b\n    EOT', 'a\n\nb\n'],
    ['<<EOT\nEOT', ''],
    ['<<EOT\na\n  EOT  ', 'a\n'],
    ['<<EOT\r\n  a\r\nEOT', '  a\r\n'],
    ['<<EOT\n$${x} %%{y}\nEOT', '${x} %{y}\n'],
    ['<<EOT\na \\n b\nEOT', 'a \\n b\n'],
  ])('reads %j', (source, value) => {
    expect(shape(parse(source))).toEqual({
      kind: 'template',
      heredoc: true,
      parts: value === '' ? [] : [{ kind: 'text', value }],
    });
  });

  it('counts whitespace before a leading interpolation as indentation', () => {
    expect(shape(parse('<<-EOT\n    a\n  ${b} c\n      d\n  EOT'))).toEqual({
      kind: 'template',
      heredoc: true,
      parts: [
        { kind: 'text', value: '  a\n' },
        { kind: 'traversal', root: 'b', steps: [] },
        { kind: 'text', value: ' c\n    d\n' },
      ],
    });
  });

  it('gives text parts the span of their source after stripping', () => {
    const expr = parse('<<-EOT\n    ab\n    EOT') as TemplateExpr;
    expect(expr.parts.map((part) => at(part.span))).toEqual(['2:5-3:1']);
    expect(at(expr.span)).toBe('1:1-3:8');
  });

  it('reports a heredoc without its closing marker', () => {
    const { expr, diagnostics } = parseExpression('<<EOT\nabc\n', { file: 'test.hcl' });
    expect(expr).toBeUndefined();
    expect(diagnostics.map((d) => `${d.line}:${d.column}-${d.endColumn} ${d.message}`)).toEqual([
      '1:1-6 syntax error: unterminated heredoc; no closing EOT line',
    ]);
  });
});

describe('parseExpression collections and calls', () => {
  it('parses nested schema helper calls', () => {
    expect(shape(parse('list(object({a = number("A", true)}), "d")'))).toEqual({
      kind: 'call',
      name: 'list',
      args: [
        {
          kind: 'call',
          name: 'object',
          args: [
            {
              kind: 'object',
              entries: [
                {
                  key: 'a',
                  value: {
                    kind: 'call',
                    name: 'number',
                    args: [text('A'), { kind: 'literal', value: true }],
                  },
                },
              ],
            },
          ],
        },
        text('d'),
      ],
    });
  });

  it('gives a call its name span and whole span', () => {
    const expr = parse('string("x", true)');
    expect(expr.kind === 'call' && [at(expr.nameSpan), at(expr.span)]).toEqual([
      '1:1-1:7',
      '1:1-1:18',
    ]);
  });

  it('accepts trailing commas and newlines in call arguments', () => {
    expect(shape(parse('f(\n  1,\n  2,\n)'))).toEqual({
      kind: 'call',
      name: 'f',
      args: [
        { kind: 'literal', value: 1, raw: '1' },
        { kind: 'literal', value: 2, raw: '2' },
      ],
    });
  });

  it('parses objects with quoted keys, both separators, commas and newlines', () => {
    const expr = parse('{\n  a = 1, "b c": 2\n  d: "x"\n  true = null,\n}');
    expect(shape(expr)).toEqual({
      kind: 'object',
      entries: [
        { key: 'a', value: { kind: 'literal', value: 1, raw: '1' } },
        { key: 'b c', value: { kind: 'literal', value: 2, raw: '2' } },
        { key: 'd', value: text('x') },
        { key: 'true', value: { kind: 'literal', value: null } },
      ],
    });
    expect(expr.kind === 'object' && expr.entries.map((entry) => at(entry.keySpan))).toEqual([
      '2:3-2:4',
      '2:10-2:15',
      '3:3-3:4',
      '4:3-4:7',
    ]);
  });

  it('parses a multi-line tuple with comments and a trailing comma', () => {
    const expr = parse('[\n  1, # one\n  // two\n  /* three */ "x",\n  a.b,\n]');
    expect(shape(expr)).toEqual({
      kind: 'tuple',
      items: [
        { kind: 'literal', value: 1, raw: '1' },
        text('x'),
        { kind: 'traversal', root: 'a', steps: [{ kind: 'attr', name: 'b' }] },
      ],
    });
    expect(at(expr.span)).toBe('1:1-6:2');
  });

  it('parses an empty tuple and an empty object', () => {
    expect(shape(parse('[ ]'))).toEqual({ kind: 'tuple', items: [] });
    expect(shape(parse('{\n}'))).toEqual({ kind: 'object', entries: [] });
  });
});

describe('parseExpression traversals', () => {
  it('parses attribute and index steps with spans', () => {
    const expr = parse('a[0].b["c"]') as TraversalExpr;
    expect(shape(expr)).toEqual({
      kind: 'traversal',
      root: 'a',
      steps: [
        { kind: 'index', key: { kind: 'literal', value: 0, raw: '0' } },
        { kind: 'attr', name: 'b' },
        { kind: 'index', key: text('c') },
      ],
    });
    expect([at(expr.rootSpan), ...expr.steps.map((step) => at(step.span)), at(expr.span)]).toEqual([
      '1:1-1:2',
      '1:2-1:5',
      '1:6-1:7',
      '1:7-1:12',
      '1:1-1:12',
    ]);
  });

  it('reads the legacy index form a.0', () => {
    expect(shape(parse('item.tags.0'))).toEqual({
      kind: 'traversal',
      root: 'item',
      steps: [
        { kind: 'attr', name: 'tags' },
        { kind: 'index', key: { kind: 'literal', value: 0, raw: '0' } },
      ],
    });
  });

  it('allows dashes in names and a reference as an index', () => {
    expect(shape(parse('models.my-config[vars.k]'))).toEqual({
      kind: 'traversal',
      root: 'models',
      steps: [
        { kind: 'attr', name: 'my-config' },
        {
          kind: 'index',
          key: { kind: 'traversal', root: 'vars', steps: [{ kind: 'attr', name: 'k' }] },
        },
      ],
    });
  });
});

describe('parseExpression unsupported constructs', () => {
  it.each([
    ['a + 1', 'arithmetic', 1, 6],
    ['x * y - 2', 'arithmetic', 1, 10],
    ['-a', 'arithmetic', 1, 3],
    ['a == b', 'comparison', 1, 7],
    ['1 <= 2', 'comparison', 1, 7],
    ['a && b', 'logical operator', 1, 7],
    ['a == b || c', 'logical operator', 1, 12],
    ['!a', 'logical operator', 1, 3],
    ['a ? b : c', 'conditional', 1, 10],
    ['a + 1 ? "x" : "y"', 'conditional', 1, 18],
    ['[for x in xs : x]', 'for expression', 1, 18],
    ['{for k, v in m : k => v}', 'for expression', 1, 25],
    ['a[*].b', 'splat', 1, 7],
    ['a.*.b', 'splat', 1, 6],
    ['(a)', 'parentheses', 1, 4],
    ['[1][0]', 'index or attribute access on a computed value', 1, 7],
    ['f(x).a', 'index or attribute access on a computed value', 1, 7],
  ])('reports %s as %s', (source, what, column, endColumn) => {
    const { expr, diagnostics } = parseExpression(source, { file: 'test.hcl' });
    expect(diagnostics).toEqual([
      {
        severity: 'error',
        message: `unsupported expression: ${what}`,
        file: 'test.hcl',
        line: 1,
        column,
        endLine: 1,
        endColumn,
        path: [],
      },
    ]);
    expect(expr !== undefined && isInvalidExpr(expr)).toBe(true);
  });

  it.each([
    ['"a%{ if x }b%{ endif }"', 'template directive', ['1:3-1:12', '1:13-1:23']],
    ['f(xs...)', 'expansion', ['1:5-1:8']],
    ['"${~ a ~}"', 'template strip marker', ['1:4-1:5', '1:8-1:9']],
    ['{ "${k}" = 1 }', 'computed object key', ['1:3-1:9']],
    ['{ a.b = 1 }', 'computed object key', ['1:3-1:6']],
    ['[1, a + b, c ? d : e]', 'arithmetic', ['1:5-1:10']],
  ])('reports each %s construct at its span', (source, what, spans) => {
    const { diagnostics } = parseExpression(source, { file: 'test.hcl' });
    const expected = spans.map((span) => `${span} unsupported expression: ${what}`);
    if (source.startsWith('[1,')) expected.push('1:12-1:21 unsupported expression: conditional');
    expect(
      diagnostics.map((d) => `${d.line}:${d.column}-${d.endLine}:${d.endColumn} ${d.message}`),
    ).toEqual(expected);
  });

  it('spans a multi-line unsupported construct', () => {
    const { diagnostics } = parseExpression('[\n  for x in xs :\n  x\n]', { file: 'test.hcl' });
    expect(diagnostics.map((d) => [d.line, d.column, d.endLine, d.endColumn])).toEqual([
      [1, 1, 4, 2],
    ]);
  });
});

describe('parseExpression placement', () => {
  it('shifts spans by the snippet start and keeps the block path', () => {
    const { expr, diagnostics } = parseExpression('x\n + 1', {
      file: 'm.hcl',
      start: { line: 3, column: 7, offset: 40 },
      path: ['mission "m"'],
    });
    expect(expr?.span).toEqual({
      file: 'm.hcl',
      start: { line: 3, column: 7, offset: 40 },
      end: { line: 4, column: 5, offset: 46 },
    });
    expect(diagnostics[0]?.path).toEqual(['mission "m"']);
  });

  it('reports trailing text as a syntax error', () => {
    const { expr, diagnostics } = parseExpression('a b', { file: 'test.hcl' });
    expect(expr).toBeUndefined();
    expect(diagnostics.map((d) => [d.message, d.column, d.endColumn])).toEqual([
      ['syntax error: expected the end of the expression, found "b"', 3, 4],
    ]);
  });
});
