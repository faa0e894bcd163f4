/**
 * The commander's tools are documented in one table of docs/configuration.md, in the order
 * the commander offers them, and the docs that point at that table reach it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commanderTools } from '../../src/tools/commander/index.ts';

const DOCS = join(import.meta.dirname, '../../docs');
const HEADING = "## The commander's tools";

/** The first-column tool names of the table under the heading, in row order. */
function documentedTools(markdown: string): string[] {
  const start = markdown.indexOf(`\n${HEADING}\n`);
  expect(start).toBeGreaterThan(-1);
  const end = markdown.indexOf('\n## ', start + HEADING.length + 2);
  const section = markdown.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(/^\| `([a-z_]+)` \|/gm)].map((match) => match[1]!);
}

describe("the commander's tool table", () => {
  it('lists every commander tool once, in the order the commander offers them', () => {
    const everyTool = commanderTools({
      hasAgents: true,
      hasAskableAgents: true,
      hasAncestors: true,
      outputSchema: { type: 'object' },
      iterator: 'sequential',
      routes: [{ key: 'next', kind: 'mission' }],
    }).map((tool) => tool.name);
    const markdown = readFileSync(join(DOCS, 'configuration.md'), 'utf8');
    expect(documentedTools(markdown)).toEqual(everyTool);
  });

  it('is what the output row and testing.md link to', () => {
    const configuration = readFileSync(join(DOCS, 'configuration.md'), 'utf8');
    const testing = readFileSync(join(DOCS, 'testing.md'), 'utf8');
    expect(configuration).toContain('[`submit_output`](#the-commanders-tools)');
    expect(testing).toContain('(configuration.md#the-commanders-tools)');
  });
});
