import { describe, expect, it } from 'vitest';
import type { Block, Span } from '../../../src/config/ast.ts';
import { blockPathSegment, parseSource } from '../../../src/config/syntax/index.ts';

function at(span: Span): string {
  return `${span.start.line}:${span.start.column}-${span.end.line}:${span.end.column}`;
}

function messages(text: string): string[] {
  return parseSource('f.hcl', text).diagnostics.map(
    (d) => `${d.line}:${d.column}-${d.endLine}:${d.endColumn} [${d.path.join(' › ')}] ${d.message}`,
  );
}

const mission = [
  'mission "research" {', // 1
  '  directive = "Find things"', // 2
  '  commander {', // 3
  '    model = models.openai.gpt_4o', // 4
  '  }', // 5
  '', // 6
  '  task "gather" {', // 7
  '    objective = <<-EOT', // 8
  '      Collect', // 9
  '      EOT', // 10
  '  }', // 11
  '  task "analyze" { objective = "x" }', // 12
  '  agents = [', // 13
  '    agents.a, # first', // 14
  '    agents.b,', // 15
  '  ]', // 16
  '}', // 17
  '',
].join('\n');

describe('parseSource structure', () => {
  it('keeps blocks and attributes in declaration order', () => {
    const { file, diagnostics } = parseSource(
      'missions/research.hcl',
      mission,
      '/abs/research.hcl',
    );
    expect(diagnostics).toEqual([]);
    expect(file.path).toBe('missions/research.hcl');
    expect(file.absolutePath).toBe('/abs/research.hcl');
    const [block] = file.body.blocks;
    expect(block?.type).toBe('mission');
    expect(block?.labels).toEqual(['research']);
    expect(block?.body.attributes.map((attribute) => attribute.name)).toEqual([
      'directive',
      'agents',
    ]);
    expect(block?.body.blocks.map((child) => blockPathSegment(child))).toEqual([
      'commander',
      'task "gather"',
      'task "analyze"',
    ]);
  });

  it('positions types, labels, attribute names and values', () => {
    const block = parseSource('m.hcl', mission).file.body.blocks[0] as Block;
    expect([at(block.typeSpan), at(block.labelSpans[0] as Span), at(block.span)]).toEqual([
      '1:1-1:8',
      '1:9-1:19',
      '1:1-17:2',
    ]);
    const [gather, analyze] = block.body.blocks.slice(1);
    expect(at(gather?.labelSpans[0] as Span)).toBe('7:8-7:16');
    const objective = gather?.body.attributes[0];
    expect(
      objective && [at(objective.nameSpan), at(objective.value.span), at(objective.span)],
    ).toEqual(['8:5-8:14', '8:17-10:10', '8:5-10:10']);
    expect(analyze && [at(analyze.span), at(analyze.body.attributes[0]?.span as Span)]).toEqual([
      '12:3-12:37',
      '12:20-12:35',
    ]);
    const agents = block.body.attributes[1];
    expect(agents && [at(agents.span), agents.value.span.start.offset]).toEqual([
      '13:3-16:4',
      mission.indexOf('[\n'),
    ]);
  });

  it('gives the same lines and columns in a CRLF file', () => {
    const crlf = mission.replaceAll('\n', '\r\n');
    const block = parseSource('m.hcl', crlf).file.body.blocks[0] as Block;
    const gather = block.body.blocks[1];
    expect(at(gather?.labelSpans[0] as Span)).toBe('7:8-7:16');
    expect(at(block.body.attributes[1]?.span as Span)).toBe('13:3-16:4');
    const objective = gather?.body.attributes[0]?.value;
    expect(objective?.kind === 'template' && objective.parts).toMatchObject([
      { kind: 'text', value: 'Collect\r\n' },
    ]);
    expect(parseSource('m.hcl', crlf).diagnostics).toEqual([]);
  });

  it('accepts blocks with several labels, bare labels, empty and one-line bodies', () => {
    const { file, diagnostics } = parseSource(
      'f.hcl',
      'a "x" "y" {}\nb z {\n}\nc { d = 1 }\n# end\n// also\n/* and */',
    );
    expect(diagnostics).toEqual([]);
    expect(
      file.body.blocks.map((block) => [block.type, block.labels, block.body.attributes.length]),
    ).toEqual([
      ['a', ['x', 'y'], 0],
      ['b', ['z'], 0],
      ['c', [], 1],
    ]);
  });

  it('counts columns in UTF-16 units after non-BMP characters', () => {
    expect(messages('x = ["🎉", a + 1]\n')).toEqual([
      '1:12-1:17 [] unsupported expression: arithmetic',
    ]);
  });

  it('skips a byte order mark', () => {
    expect(parseSource('f.hcl', '\uFEFFx = 1\n').file.body.attributes[0]?.name).toBe('x');
  });

  it('still parses a file written for the reference runtime', () => {
    const text = [
      'plugin "browser" {',
      '  source  = "github.com/x/browser"',
      '  version = "v1.0.0"',
      '}',
      'mcp "files" {',
      '  command = "npx"',
      '  args    = ["-y", "@mcp/files"]',
      '  env     = { TOKEN = vars.token }',
      '}',
      'agent "a" {',
      '  model = models.openai.gpt_4o',
      '  tools = [plugins.browser.all, mcp.files.read]',
      '  compaction { token_limit = 1000 }',
      '}',
      '',
    ].join('\n');
    const { file, diagnostics } = parseSource('ref.hcl', text);
    expect(diagnostics).toEqual([]);
    expect(file.body.blocks.map((block) => blockPathSegment(block))).toEqual([
      'plugin "browser"',
      'mcp "files"',
      'agent "a"',
    ]);
  });
});

describe('parseSource diagnostics', () => {
  it('reports unsupported expressions with the enclosing block path', () => {
    expect(
      messages('mission "m" {\n  task "t" {\n    objective = a ? "x" : "y"\n  }\n}\n'),
    ).toEqual(['3:17-3:30 [mission "m" › task "t"] unsupported expression: conditional']);
  });

  it('keeps an attribute whose value is unsupported', () => {
    const { file } = parseSource('f.hcl', 'x = 1 + 2\ny = 3\n');
    expect(file.body.attributes.map((attribute) => attribute.name)).toEqual(['x', 'y']);
  });

  it('recovers after a syntax error and keeps collecting', () => {
    const text = 'a {\n  x = \n  y = [1,\n 2 3]\n  z = 4\n}\nb = "ok"\nc = "unterminated\n';
    expect(messages(text)).toEqual([
      '2:7-2:7 [a] syntax error: expected an expression, found end of line',
      "4:4-4:5 [a] syntax error: expected ',' or ']', found \"3\"",
      '8:5-8:18 [] syntax error: unterminated string; a quoted string ends on its own line (use \\n or a heredoc for several lines)',
    ]);
    const { file } = parseSource('f.hcl', text);
    expect(file.body.blocks[0]?.body.attributes.map((attribute) => attribute.name)).toEqual(['z']);
    expect(file.body.attributes.map((attribute) => attribute.name)).toEqual(['b']);
  });

  it.each([
    [
      'x = 1 y = 2\n',
      '1:7-1:8 [] syntax error: expected a newline after the attribute or block, found "y"',
    ],
    [
      'x = 1 "y"\n',
      "1:7-1:8 [] syntax error: expected a newline after the attribute or block, found '\"'",
    ],
    ['a "l" = 1\n', '1:7-1:8 [] syntax error: expected \'{\' to open the block, found "="'],
    ['a\n', "1:2-1:2 [] syntax error: expected '=' or '{' after \"a\", found end of line"],
    ['}\n', "1:1-1:2 [] syntax error: unexpected '}'"],
    ['= 1\n', '1:1-1:2 [] syntax error: expected an attribute or block, found "="'],
    [
      'a "${x}" {}\n',
      '1:3-1:9 [] syntax error: invalid block label; a label is a plain string without ${...}',
    ],
    ['a {\n  b {\n', "2:3-2:6 [a] syntax error: missing '}' to close the block b"],
    ['x = 1\nx = 2\n', '2:1-2:2 [] attribute "x" is set twice (first at line 1)'],
    ['x = f(1\n', "2:1-2:1 [] syntax error: expected ',' or ')', found end of file"],
    ['/* open\nx = 1\n', '1:1-1:3 [] syntax error: unterminated comment; a /* comment needs */'],
  ])('reports %j', (text, message) => {
    expect(messages(text)[0]).toBe(message);
  });

  it.each([
    [
      'a { x = 1\n  y = 2\n}\n',
      '1:10-1:10 [a] syntax error: a one-line block holds at most one attribute and closes on the same line',
    ],
    [
      'a { b {\n}\n}\n',
      '1:5-1:6 [a] syntax error: a one-line block holds at most one attribute and closes on the same line',
    ],
    [
      'a { x = 1, y = 2 }\n',
      '1:10-1:11 [a] syntax error: a one-line block holds at most one attribute and closes on the same line',
    ],
    [
      'a {\n  x = 1 }\n',
      '2:9-2:10 [a] syntax error: expected a newline after the attribute or block, found "}"',
    ],
    [
      'a {\n  b {}}\n',
      '2:7-2:8 [a] syntax error: expected a newline after the attribute or block, found "}"',
    ],
    [
      'a {} b {}\n',
      '1:6-1:7 [] syntax error: expected a newline after the attribute or block, found "b"',
    ],
  ])('applies the one-line block rules to %j', (text, message) => {
    expect(messages(text)).toEqual([message]);
  });

  it('keeps collecting the items of a broken one-line block', () => {
    const { file } = parseSource('f.hcl', 'a { x = 1\n  y = 2\n  b {}\n}\nc = 3\n');
    const block = file.body.blocks[0];
    expect(block?.body.attributes.map((attribute) => attribute.name)).toEqual(['x', 'y']);
    expect(block?.body.blocks.map((child) => child.type)).toEqual(['b']);
    expect(file.body.attributes.map((attribute) => attribute.name)).toEqual(['c']);
  });

  it('reports absurd nesting instead of overflowing the stack', () => {
    const deepTuple = `x = ${'['.repeat(5000)}${']'.repeat(5000)}\n`;
    expect(messages(deepTuple)).toEqual([
      '1:205-1:206 [] syntax error: nested more than 200 levels deep',
    ]);
    const deepBlocks = 'a {\n'.repeat(5000) + '}\n'.repeat(5000);
    expect(
      parseSource('f.hcl', deepBlocks).diagnostics.map((d) => [d.line, d.column, d.message]),
    ).toEqual([[201, 3, 'syntax error: nested more than 200 levels deep']]);
  });

  it('reports nesting cut at the limit once, skipping the brackets it left open', () => {
    const deepObjects = `x = ${'{ a = '.repeat(1000)}1${' }'.repeat(1000)}\ny = 2\n`;
    expect(messages(deepObjects)).toEqual([
      '1:1201-1:1202 [] syntax error: nested more than 200 levels deep',
    ]);
    expect(parseSource('f.hcl', deepObjects).file.body.attributes.map((a) => a.name)).toEqual([
      'y',
    ]);
  });

  it('skips a failed item whole: strings, interpolations and heredocs inside it included', () => {
    const text = ['a = [1 2, "}", "${ {b = "]"} }", <<EOT', '} ] )', 'EOT', ']', 'c = 4', ''].join(
      '\n',
    );
    expect(messages(text)).toEqual([`1:8-1:9 [] syntax error: expected ',' or ']', found "2"`]);
    expect(parseSource('f.hcl', text).file.body.attributes.map((a) => a.name)).toEqual(['c']);
  });

  it('ends a skip at the enclosing block when a bracket is never closed', () => {
    expect(messages('m {\n  a = [1, 2\n}\nn {\n  b = [\n}\n')).toEqual([
      `3:1-3:2 [m] syntax error: expected ',' or ']', found "}"`,
      '6:1-6:2 [n] syntax error: expected an expression, found "}"',
    ]);
  });

  it('reports a carriage return that does not start a CRLF, as HCL does, and reads on', () => {
    const message =
      'syntax error: invalid character; a carriage return (\\r) is only allowed before a newline';
    expect(messages('a = 1 \r # c\nb {\r}\nc = [1,\r 2]\r\n')).toEqual([
      `1:7-1:8 [] ${message}`,
      `2:4-2:5 [b] ${message}`,
      `3:8-3:9 [] ${message}`,
    ]);
    expect(messages('a = 1 # \r\r\nb = /* \r */ 2\r\n')).toEqual([]);
    expect(messages('a = <<EOT\nx\ry\nEOT\nb = 1\n')).toEqual([
      '2:2-2:3 [] syntax error: invalid character; a carriage return (\\r) in a heredoc is only allowed before a newline',
    ]);
  });

  it('allows a newline after a dot inside brackets, parentheses and interpolations, as HCL does', () => {
    const text = 'a = [b.\nc, f(d.\n e), "${g.\nh}"]\nx = { y = i.\nj }\n';
    expect(messages(text)).toEqual([
      `5:13-5:13 [] syntax error: expected an attribute name after ".", found end of line`,
    ]);
  });

  it('reports an unterminated comment once', () => {
    expect(messages('a = 1 /* open\n')).toEqual([
      '1:7-1:9 [] syntax error: unterminated comment; a /* comment needs */',
    ]);
  });

  it('reports an unclosed outer block after the inner one', () => {
    expect(messages('a {\n  b {\n')).toEqual([
      "2:3-2:6 [a] syntax error: missing '}' to close the block b",
      "1:1-1:4 [] syntax error: missing '}' to close the block a",
    ]);
  });
});
