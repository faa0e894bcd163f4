import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Body, Expr } from '../../../src/config/ast.ts';
import { checkWithHcl2Json, parseProject, parseSource } from '../../../src/config/syntax/index.ts';

const fixtures = join(import.meta.dirname, '..', '..', 'fixtures', 'config-syntax');
/** The complete example of config.md, shared with the semantic tests. */
const SPEC_EXAMPLE = join(import.meta.dirname, '../../fixtures/config/spec-example');

/** hcl2json's strings are Terraform templates again, so it keeps `$${` and `%%{` escaped. */
function asTemplateText(value: string): string {
  return value.replaceAll('${', () => '$${').replaceAll('%{', () => '%%{');
}

/** The JSON value hcl2json gives for a literal-only expression. */
function valueOf(expr: Expr): unknown {
  switch (expr.kind) {
    case 'literal':
      return expr.value;
    case 'template':
      return expr.parts
        .map((part) => (part.kind === 'text' ? asTemplateText(part.value) : valueOf(part)))
        .join('');
    case 'tuple':
      return expr.items.map(valueOf);
    case 'object':
      return Object.fromEntries(expr.entries.map((entry) => [entry.key, valueOf(entry.value)]));
    default:
      throw new Error(`not a literal: ${expr.kind}`);
  }
}

/** hcl2json's layout: labels nest as object keys, each block body is one array element. */
function jsonOf(body: Body): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const attribute of body.attributes) result[attribute.name] = valueOf(attribute.value);
  for (const block of body.blocks) {
    let holder: Record<string, unknown> = result;
    let key = block.type;
    for (const label of block.labels) {
      holder[key] ??= {};
      holder = holder[key] as Record<string, unknown>;
      key = label;
    }
    holder[key] ??= [];
    (holder[key] as unknown[]).push(jsonOf(block.body));
  }
  return result;
}

describe('agreement with hcl2json', () => {
  it.each([
    ['LF', (text: string) => text],
    ['CRLF', (text: string) => text.replaceAll('\n', '\r\n')],
  ])(
    'reads every literal, escape and heredoc of values.hcl like hcl2json (%s)',
    async (_name, convert) => {
      const text = convert(await readFile(join(fixtures, 'literals', 'values.hcl'), 'utf8'));
      const reference = await checkWithHcl2Json('values.hcl', text);
      const { file, diagnostics } = parseSource('values.hcl', text);
      expect(diagnostics).toEqual([]);
      expect(reference.ok).toBe(true);
      expect(jsonOf(file.body)).toEqual(reference.ok ? reference.json : undefined);
    },
  );

  it('parses the complete example of config.md without diagnostics', async () => {
    const { files, diagnostics } = await parseProject(SPEC_EXAMPLE);
    expect(diagnostics).toEqual([]);
    expect(files.map((file) => file.path)).toEqual(['main.hcl']);
    const mission = files[0]?.body.blocks.find((block) => block.labels[0] === 'price_check');
    expect(
      mission?.body.blocks.map((block) => `${block.type} ${block.labels.join(' ')}`.trim()),
    ).toEqual(['commander', 'dataset quotes', 'task convert', 'task decide', 'task order']);
  });
});
