/**
 * The user docs link to each other and to the repository's files by relative paths and
 * heading anchors; a moved file or a renamed heading must not leave a link pointing nowhere.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');

/** The Markdown files a reader of the repository opens: README, docs/, examples/, bench/. */
function documents(): string[] {
  const examples = readdirSync(join(ROOT, 'examples'))
    .map((name) => join('examples', name, 'README.md'))
    .filter((path) => existsSync(join(ROOT, path)));
  const docs = readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => join('docs', name));
  return ['README.md', 'bench/README.md', ...docs, ...examples];
}

/** The text outside fenced code blocks. */
function outsideFences(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '');
}

/** The text outside fenced code blocks and code spans, where a link is a link. */
function prose(markdown: string): string {
  return outsideFences(markdown).replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .replace(/`/g, '')
    .toLowerCase()
    .replace(/[^\p{Letter}\p{Number}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Every anchor the headings of a Markdown file give, repeated headings numbered as GitHub does. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const match of outsideFences(markdown).matchAll(/^#{1,6}\s+(.+?)\s*$/gm)) {
    const base = slug(match[1]!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** Relative link targets (`path`, `path#anchor`, `#anchor`) of one document. */
function relativeLinks(markdown: string): string[] {
  const targets = [...prose(markdown).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map(
    (match) => match[1]!,
  );
  return targets.filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

/** What is wrong with each broken link of one document, as `FILE: TARGET (why)`. */
function brokenLinks(document: string): string[] {
  const markdown = readFileSync(join(ROOT, document), 'utf8');
  const problems: string[] = [];
  for (const target of relativeLinks(markdown)) {
    const [path = '', anchor] = target.split('#');
    const resolved = path === '' ? join(ROOT, document) : join(ROOT, dirname(document), path);
    if (!existsSync(resolved)) {
      problems.push(`${document}: ${target} (no ${relative(ROOT, resolved)})`);
      continue;
    }
    if (anchor === undefined || !resolved.endsWith('.md') || statSync(resolved).isDirectory()) {
      continue;
    }
    if (!anchorsOf(readFileSync(resolved, 'utf8')).has(anchor)) {
      problems.push(`${document}: ${target} (no heading for #${anchor})`);
    }
  }
  return problems;
}

/** Source and doc files that may cite docs/decisions.md by an entry's title. */
function citingFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((path) => /\.(ts|tsx|md)$/.test(path) && !path.includes('fixtures'))
    .map((path) => join(folder, path))
    .filter((path) => path !== 'test/layout/docs-links.test.ts');
}

/** Titles cited as `docs/decisions.md, "Title"` or `docs/decisions.md ("Title")`, comment marks dropped. */
function citedTitles(text: string): string[] {
  const flat = text.replace(/\n\s*(?:\*|\/\/)?\s*/g, ' ');
  return [...flat.matchAll(/docs\/decisions\.md[,\s(]+"([^"]+)"/g)].map((match) => match[1]!);
}

/** Every `docs/decisions.md` citation whose title no heading of that file begins with. */
function unknownDecisionTitles(): string[] {
  const headings = [
    ...readFileSync(join(ROOT, 'docs/decisions.md'), 'utf8').matchAll(/^#{2,3} (.+)$/gm),
  ].map((match) => match[1]!);
  const files = [...citingFiles('src'), ...citingFiles('test'), 'README.md', 'bench/README.md'];
  return files.flatMap((file) =>
    citedTitles(readFileSync(join(ROOT, file), 'utf8'))
      .filter((title) => !headings.some((heading) => heading.startsWith(title)))
      .map((title) => `${file}: "${title}"`),
  );
}

describe('links in the docs', () => {
  it('reach an existing file and, with an anchor, one of its headings', () => {
    expect(documents().flatMap(brokenLinks)).toEqual([]);
  });

  it('cite docs/decisions.md entries by titles it has', () => {
    expect(unknownDecisionTitles()).toEqual([]);
  });

  it('find anchors the way GitHub writes them', () => {
    expect(slug("The commander's tools")).toBe('the-commanders-tools');
    expect(slug('`sortie verify` cold (issue 12 item 3)')).toBe(
      'sortie-verify-cold-issue-12-item-3',
    );
    expect([...anchorsOf('## Superseded\n\n## Superseded\n')]).toEqual([
      'superseded',
      'superseded-1',
    ]);
    expect(citedTitles(' * the journal (docs/decisions.md, "Journal\n * writer"). More')).toEqual([
      'Journal writer',
    ]);
  });
});
