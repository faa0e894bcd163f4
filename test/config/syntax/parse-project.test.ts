import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  checkWithHcl2Json,
  diagnosticsFromHcl2JsonError,
  parseProject,
} from '../../../src/config/syntax/index.ts';
import { temporaryDirectory } from '../../helpers/temp-dir.ts';

let base: string;

async function project(name: string, files: Record<string, string>): Promise<string> {
  const root = join(base, name);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(root, path, '..'), { recursive: true });
    await writeFile(join(root, path), text);
  }
  return root;
}

beforeAll(async () => {
  base = await temporaryDirectory('project');
});

function located(
  diagnostics: Array<{
    file: string;
    line: number;
    column: number;
    endLine: number;
    endColumn: number;
    message: string;
    path: string[];
  }>,
) {
  return diagnostics.map(
    (d) =>
      `${d.file}:${d.line}:${d.column}-${d.endLine}:${d.endColumn} [${d.path.join(' › ')}] ${d.message}`,
  );
}

describe('checkWithHcl2Json', () => {
  it('maps a rejected file to file:line:col diagnostics', async () => {
    const result = await checkWithHcl2Json('g.hcl', 'a {\n  x = \n}\n');
    expect(result.ok).toBe(false);
    expect(!result.ok && located(result.diagnostics)).toEqual([
      'g.hcl:2:7-3:1 [] syntax error: invalid expression; expected the start of an expression, but found an invalid expression token.',
    ]);
  });

  it('converts character columns to UTF-16 columns and keeps one diagnostic per position', async () => {
    // HCL adds "missing newline after argument" at the same place: the same mistake again.
    const result = await checkWithHcl2Json('dir/u.hcl', 'x = "é🎉" ; y\n');
    expect(!result.ok && located(result.diagnostics)).toEqual([
      'dir/u.hcl:1:11-1:12 [] syntax error: invalid character; the ";" character is not valid. Use newlines to separate arguments and blocks, and commas to separate items in collection values.',
    ]);
  });

  it('reports a string left open once, however many lines it runs over', async () => {
    const text = 'variable "x" {\n  default = "abc\n  description = "d"\n}\nvariable "y" {}\n';
    const result = await checkWithHcl2Json('s.hcl', text);
    expect(!result.ok && located(result.diagnostics)).toEqual([
      's.hcl:2:17-3:1 [] syntax error: unterminated template string; no closing marker was found for the string.',
    ]);
  });

  it('accepts a block type written with and without labels, which HCL parses but JSON cannot hold', async () => {
    // hcl2json words this two ways, depending on which block comes first.
    const unlabelledFirst = 'variable {\n}\nvariable "c" {\n}\n';
    const labelledFirst = 'variable "c" {\n}\nvariable {\n}\n';
    expect([
      await checkWithHcl2Json('v.hcl', unlabelledFirst),
      await checkWithHcl2Json('v.hcl', labelledFirst),
    ]).toEqual([{ ok: true }, { ok: true }]);
  });

  it('returns the JSON of an accepted file', async () => {
    expect(await checkWithHcl2Json('ok.hcl', 'task "a" { x = 1 }\n')).toEqual({
      ok: true,
      json: { task: { a: [{ x: 1 }] } },
    });
  });
});

describe('diagnosticsFromHcl2JsonError', () => {
  it('reads a range on one line and one spanning lines', () => {
    const message =
      'parse config: [f.hcl:1,6-8: Invalid escape sequence; The symbol "q" is not valid. f.hcl:2,1-3,4: Argument or block definition required; An argument is required here.]';
    expect(located(diagnosticsFromHcl2JsonError('f.hcl', 'x = "\\q"\n}\nab\n', message))).toEqual([
      'f.hcl:1:6-1:8 [] syntax error: invalid escape sequence; the symbol "q" is not valid.',
      'f.hcl:2:1-3:4 [] syntax error: argument or block definition required; an argument is required here.',
    ]);
  });

  it('falls back to the start of the file for text it cannot read', () => {
    expect(located(diagnosticsFromHcl2JsonError('f.hcl', 'x', 'wasm crashed'))).toEqual([
      'f.hcl:1:1-1:1 [] syntax error: wasm crashed',
    ]);
  });
});

describe('parseProject', () => {
  it("places hcl2json's diagnostics after long strings at their columns in the file", async () => {
    // hcl2json sees each long run of plain string text cut short; its columns are moved back.
    const text = [
      'z = <<EOT',
      'c'.repeat(5000),
      'EOT',
      `x = "${'a'.repeat(5000)}\\n${'b'.repeat(5000)}" ; y`,
      '',
    ].join('\n');
    const root = await project('long-strings', { 'main.hcl': text });
    const { diagnostics } = await parseProject(root);
    expect(located(diagnostics).map((line) => line.slice(0, line.indexOf(' ')))).toEqual([
      'main.hcl:4:10010-4:10011',
    ]);
  });

  it('parses every file in order and keeps declaration order inside each', async () => {
    const root = await project('ordered', {
      'main.hcl': 'variable "z" {}\nvariable "a" {}\n',
      'missions/m.hcl': 'mission "m" {\n  task "second" {}\n  task "first" {}\n}\n',
    });
    const { files, diagnostics, root: found } = await parseProject(root);
    expect(found).toBe(root);
    expect(diagnostics).toEqual([]);
    expect(files.map((file) => [file.path, file.absolutePath])).toEqual([
      ['main.hcl', join(root, 'main.hcl')],
      ['missions/m.hcl', join(root, 'missions', 'm.hcl')],
    ]);
    expect(files[0]?.body.blocks.map((block) => block.labels[0])).toEqual(['z', 'a']);
    expect(files[1]?.body.blocks[0]?.body.blocks.map((block) => block.labels[0])).toEqual([
      'second',
      'first',
    ]);
  });

  it('reports hcl2json syntax errors with their block path instead of its own', async () => {
    const root = await project('broken', {
      'a.hcl': 'mission "m" {\n  task "t" {\n    objective = \n  }\n}\n',
      'b.hcl': 'x = a + 1\n',
    });
    const { diagnostics } = await parseProject(root);
    expect(located(diagnostics)).toEqual([
      'a.hcl:3:17-4:1 [mission "m" › task "t"] syntax error: invalid expression; expected the start of an expression, but found an invalid expression token.',
      'b.hcl:1:5-1:10 [] unsupported expression: arithmetic',
    ]);
  });

  it("checks with hcl2json only the files sortie's parser has a problem with, or all when strict", async () => {
    const root = await project('checked', {
      'a.hcl': 'variable "a" {}\n',
      'b.hcl': 'y = \n',
      'c.hcl': 'x = a + 1\n',
    });
    const lenient = await parseProject(root);
    const strict = await parseProject(root, { strictHcl: true });
    expect([lenient.hclChecked, strict.hclChecked]).toEqual([
      ['b.hcl', 'c.hcl'],
      ['a.hcl', 'b.hcl', 'c.hcl'],
    ]);
    expect(strict.diagnostics).toEqual(lenient.diagnostics);
    expect(located(lenient.diagnostics)).toEqual([
      'b.hcl:1:5-2:1 [] syntax error: invalid expression; expected the start of an expression, but found an invalid expression token.',
      'c.hcl:1:5-1:10 [] unsupported expression: arithmetic',
    ]);
  });

  it('reports no syntax error for a block type with and without labels, even when strict', async () => {
    // hcl2json fails to write such a file as JSON; the missing label is the decoder's to report.
    const root = await project('labels', {
      'main.hcl': 'variable {\n}\nvariable "c" {\n}\nx = a + 1\n',
    });
    const { diagnostics } = await parseProject(root, { strictHcl: true });
    expect(located(diagnostics)).toEqual([
      'main.hcl:5:5-5:10 [] unsupported expression: arithmetic',
    ]);
  });

  it('loads only the given file when the target is a file', async () => {
    const root = await project('single', { 'a.hcl': 'x = 1\n', 'b.hcl': 'y = \n' });
    const { files, diagnostics, root: found } = await parseProject(join(root, 'a.hcl'));
    expect([found, files.map((file) => file.path), diagnostics]).toEqual([root, ['a.hcl'], []]);
  });

  it('checks many files concurrently through one hcl2json instance', async () => {
    const texts = Array.from({ length: 20 }, (_, index) => `value_${index} = ${index}\n`);
    const results = await Promise.all(
      texts.map((text, index) => checkWithHcl2Json(`f${index}.hcl`, text)),
    );
    expect(results).toEqual(
      texts.map((_, index) => ({ ok: true, json: { [`value_${index}`]: index } })),
    );
  });

  it('parses a file written for the reference runtime (rejecting its blocks is not syntax)', async () => {
    const root = await project('reference', {
      'squad.hcl': [
        'plugin "browser" {',
        '  source = "github.com/x/browser"',
        '}',
        'mcp "files" {',
        '  command = "npx"',
        '  args    = ["-y", "@mcp/files"]',
        '}',
        'storage {',
        '  backend = "sqlite"',
        '}',
        '',
      ].join('\n'),
    });
    const { files, diagnostics } = await parseProject(root);
    expect(diagnostics).toEqual([]);
    expect(files[0]?.body.blocks.map((block) => block.type)).toEqual(['plugin', 'mcp', 'storage']);
  });
});
