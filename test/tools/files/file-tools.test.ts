import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AgentTool } from '../../../src/tools/builtins/agent-tool.ts';
import { SlotSet, fileToolsFor } from '../../../src/tools/files/index.ts';
import { callTool, toolCaller } from '../builtins/call-tool.ts';
import { createSlotFixture } from './fixture.ts';
import type { SlotFixture } from './fixture.ts';

let fixture: SlotFixture;
let tools: Map<string, AgentTool>;
let memory: string;

beforeEach(async () => {
  fixture = await createSlotFixture();
  memory = join(fixture.base, 'slots', 'memory');
  tools = new Map(fileToolsFor(fixture.slots).map((tool) => [tool.definition.name, tool]));
});

const call = toolCaller(() => tools);

const text = (content: string) => ({ content, isError: false });
const error = (message: string) => ({
  content: JSON.stringify({ status: 'error', error: message }),
  isError: true,
});

describe('fileToolsFor', () => {
  it('offers the seven file tools in order when a slot exists, none without slots', () => {
    expect([...tools.keys()]).toEqual([
      'file_list',
      'file_read',
      'file_create',
      'file_delete',
      'file_search',
      'file_grep',
      'file_view',
    ]);
    expect(fileToolsFor(new SlotSet({}))).toEqual([]);
  });
});

describe('file_list', () => {
  it('lists folders with a slash and files with sizes, hidden files and outside links left out', async () => {
    expect(await call('file_list', { slot: 'memory' })).toEqual(
      text('a.txt  17 B\ndocs/\nlink-in  17 B\n(3 entries)'),
    );
  });

  it('lists recursively with paths from the slot root', async () => {
    expect(await call('file_list', { slot: 'memory', path: 'docs', recursive: true })).toEqual(
      text('docs/deep/\ndocs/deep/notes.md  10 B\ndocs/readme.md  23 B\n(3 entries)'),
    );
  });

  it('pages with limit and offset and says how to get more', async () => {
    expect(await call('file_list', { slot: 'memory', recursive: true, limit: 2 })).toEqual(
      text('a.txt  17 B\ndocs/\n(showing 1-2 of 6 entries; call again with offset 2 for more)'),
    );
    expect(
      await call('file_list', { slot: 'memory', recursive: true, limit: 2, offset: 4 }),
    ).toEqual(text('docs/readme.md  23 B\nlink-in  17 B\n(showing 5-6 of 6 entries)'));
    expect(await call('file_list', { slot: 'memory', offset: 10 })).toEqual(
      text('(no entries at offset 10; 3 entries in total)'),
    );
  });

  it('formats sizes in KB and MB', async () => {
    await writeFile(join(memory, 'docs', 'kb.bin'), Buffer.alloc(1229));
    await writeFile(join(memory, 'docs', 'mb.bin'), Buffer.alloc(3 * 1024 * 1024 + 200 * 1024));
    const listing = await call('file_list', { slot: 'memory', path: 'docs' });
    expect(listing).toEqual(
      text(
        'docs/deep/\ndocs/kb.bin  1.2 KB\ndocs/mb.bin  3.2 MB\ndocs/readme.md  23 B\n(4 entries)',
      ),
    );
  });

  it('reports an empty slot, a missing folder and a file given as folder', async () => {
    expect(await call('file_list', { slot: 'scratchpad' })).toEqual(text('(no entries)'));
    expect(await call('file_list', { slot: 'memory', path: 'nope' })).toEqual(
      error('folder "nope" not found in slot "memory"'),
    );
    expect(await call('file_list', { slot: 'memory', path: 'a.txt' })).toEqual(
      error('"a.txt" is a file, not a folder: use file_read or file_view'),
    );
  });

  it('caps limit at 1000 through its schema', async () => {
    expect(await call('file_list', { slot: 'memory', limit: 1001 })).toEqual({
      content: '{"status":"error","problems":["/limit: must be <= 1000"]}',
      isError: true,
    });
  });
});

describe('file_read', () => {
  it('returns the text itself', async () => {
    expect(await call('file_read', { slot: 'memory', path: 'docs/readme.md' })).toEqual(
      text('# Title\nsome beta text\n'),
    );
  });

  it('reads the first lines or bytes', async () => {
    expect(await call('file_read', { slot: 'memory', path: 'a.txt', max_lines: 2 })).toEqual(
      text('alpha\nbeta'),
    );
    expect(await call('file_read', { slot: 'memory', path: 'a.txt', max_bytes: 8 })).toEqual(
      text('alpha\nbe'),
    );
  });

  it('never cuts a UTF-8 character in half', async () => {
    await writeFile(join(memory, 'accents.txt'), 'éé');
    expect(await call('file_read', { slot: 'memory', path: 'accents.txt', max_bytes: 3 })).toEqual(
      text('é'),
    );
  });

  it('points binary files to file_view', async () => {
    await writeFile(join(memory, 'data.bin'), Buffer.from([1, 2, 0, 3]));
    expect(await call('file_read', { slot: 'memory', path: 'data.bin' })).toEqual(
      error(
        'file "data.bin" is binary: file_read reads text; use file_view for images, SVG and PDF',
      ),
    );
  });

  it('asks for max_bytes above 10 MB, and reads a capped part', async () => {
    await writeFile(join(memory, 'big.log'), 'z'.repeat(10 * 1024 * 1024 + 1));
    expect(await call('file_read', { slot: 'memory', path: 'big.log' })).toEqual(
      error(
        'file "big.log" is 10.0 MB, over the 10 MB limit for a whole read: pass max_bytes to read part of it',
      ),
    );
    expect(await call('file_read', { slot: 'memory', path: 'big.log', max_bytes: 5 })).toEqual(
      text('zzzzz'),
    );
  });

  it('reports missing files and folders', async () => {
    expect(await call('file_read', { slot: 'memory', path: 'none.txt' })).toEqual(
      error('file "none.txt" not found in slot "memory"'),
    );
    expect(await call('file_read', { slot: 'memory', path: 'docs' })).toEqual(
      error('"docs" is a folder: use file_list'),
    );
  });

  it('reads hidden files when named', async () => {
    expect(await call('file_read', { slot: 'memory', path: '.hidden' })).toEqual(
      text('hidden beta'),
    );
  });
});

describe('file_create', () => {
  it('creates a file with its parent folders and counts UTF-8 bytes', async () => {
    expect(
      await call('file_create', { slot: 'scratchpad', path: 'a/b/c.md', content: 'héllo' }),
    ).toEqual(text('{"status":"ok","bytes":6}'));
    expect(
      await readFile(join(fixture.base, 'slots', 'scratchpad', 'a', 'b', 'c.md'), 'utf8'),
    ).toBe('héllo');
  });

  it('refuses an existing file without a flag, and overwrites or appends with one', async () => {
    expect(await call('file_create', { slot: 'memory', path: 'a.txt', content: 'x' })).toEqual(
      error(
        'file "a.txt" already exists: pass overwrite = true to replace it or append = true to add to it',
      ),
    );
    await call('file_create', { slot: 'memory', path: 'a.txt', content: 'new', overwrite: true });
    await call('file_create', { slot: 'memory', path: 'a.txt', content: '+more', append: true });
    expect(await readFile(join(memory, 'a.txt'), 'utf8')).toBe('new+more');
    expect(
      await call('file_create', {
        slot: 'memory',
        path: 'a.txt',
        content: 'x',
        overwrite: true,
        append: true,
      }),
    ).toEqual(error('pass overwrite or append, not both'));
  });

  it('refuses folders and the slot root', async () => {
    expect(
      await call('file_create', { slot: 'memory', path: 'docs', content: 'x', overwrite: true }),
    ).toEqual(error('"docs" is a folder'));
    expect(await call('file_create', { slot: 'memory', path: '.', content: 'x' })).toEqual(
      error('path must name a file, not the slot root'),
    );
  });

  it('creates a shared memory folder on first write', async () => {
    const slots = new SlotSet({ shared: { team: join(fixture.base, 'slots', 'team') } });
    const create = fileToolsFor(slots).find((tool) => tool.definition.name === 'file_create');
    expect(
      await callTool(create as AgentTool, { slot: 'team', path: 'x.md', content: 'x' }),
    ).toEqual(text('{"status":"ok","bytes":1}'));
  });
});

describe('file_delete', () => {
  it('deletes a file', async () => {
    expect(await call('file_delete', { slot: 'memory', path: 'docs/readme.md' })).toEqual(
      text('{"status":"ok","deleted":"docs/readme.md"}'),
    );
    await expect(stat(join(memory, 'docs', 'readme.md'))).rejects.toThrow();
  });

  it('refuses folders and missing files', async () => {
    expect(await call('file_delete', { slot: 'memory', path: 'docs' })).toEqual(
      error('"docs" is a folder: file_delete deletes files only'),
    );
    expect(await call('file_delete', { slot: 'memory', path: 'gone.txt' })).toEqual(
      error('file "gone.txt" not found in slot "memory"'),
    );
  });
});

describe('file_search', () => {
  it('matches file names by regex and returns relative paths', async () => {
    expect(await call('file_search', { slot: 'memory', pattern: '\\.md$' })).toEqual(
      text('docs/deep/notes.md\ndocs/readme.md\n(2 matches)'),
    );
    expect(
      await call('file_search', { slot: 'memory', pattern: '^notes', path: 'docs/deep' }),
    ).toEqual(text('docs/deep/notes.md\n(1 match)'));
  });

  it('pages results', async () => {
    expect(
      await call('file_search', { slot: 'memory', pattern: '.', limit: 1, offset: 1 }),
    ).toEqual(
      text('docs/deep/notes.md\n(showing 2-2 of 4 matches; call again with offset 2 for more)'),
    );
  });

  it('rejects an invalid regex', async () => {
    expect(await call('file_search', { slot: 'memory', pattern: '([a-' })).toEqual(
      error('invalid pattern: missing closing ]: `[a-`'),
    );
  });

  it('matches a long file name against a catastrophic pattern promptly', async () => {
    await writeFile(join(memory, `${'a'.repeat(200)}b.txt`), '');
    expect(await call('file_search', { slot: 'memory', pattern: '^(a|a)+$' })).toEqual(
      text('(no matches)'),
    );
    expect(await call('file_search', { slot: 'memory', pattern: '^(a|a)+b\\.txt$' })).toEqual(
      text(`${'a'.repeat(200)}b.txt\n(1 match)`),
    );
  });

  it('names syntax the linear-time engine lacks', async () => {
    expect(await call('file_search', { slot: 'memory', pattern: '(?<!docs)\\.md$' })).toEqual(
      error(
        'unsupported pattern syntax: lookbehind "(?<!"; RE2 has no lookaround: make the preceding text part of the match, e.g. (?<=\\$)\\d+ → \\$\\d+, or leave it out',
      ),
    );
  });
});

describe('file_grep', () => {
  it('returns path:line: text for matching lines, recursively by default', async () => {
    expect(await call('file_grep', { slot: 'memory', pattern: 'beta' })).toEqual(
      text(
        'a.txt:2: beta\ndocs/deep/notes.md:1: deep beta\ndocs/readme.md:2: some beta text\nlink-in:2: beta\n(4 matches)',
      ),
    );
  });

  it('searches one folder level when recursive is false, or one file', async () => {
    expect(
      await call('file_grep', { slot: 'memory', pattern: 'beta', path: 'docs', recursive: false }),
    ).toEqual(text('docs/readme.md:2: some beta text\n(1 match)'));
    expect(await call('file_grep', { slot: 'memory', pattern: '^g', path: 'a.txt' })).toEqual(
      text('a.txt:3: gamma\n(1 match)'),
    );
  });

  it('cuts long lines at 200 characters and skips binary files', async () => {
    await writeFile(join(memory, 'long.txt'), `${'m'.repeat(250)}\n`);
    await writeFile(join(memory, 'bin.dat'), Buffer.from('mmm\u0000mmm'));
    expect(await call('file_grep', { slot: 'memory', pattern: 'mmm', recursive: false })).toEqual(
      text(`long.txt:1: ${'m'.repeat(200)}…\n(1 match)`),
    );
  });

  it('pages and rejects invalid regexes', async () => {
    expect(await call('file_grep', { slot: 'memory', pattern: 'beta', limit: 2 })).toEqual(
      text(
        'a.txt:2: beta\ndocs/deep/notes.md:1: deep beta\n(showing 1-2 of 4 matches; call again with offset 2 for more)',
      ),
    );
    expect(await call('file_grep', { slot: 'memory', pattern: '*' })).toEqual(
      error('invalid pattern: missing argument to repetition operator: `*`'),
    );
  });

  it('runs catastrophic patterns in linear time with correct results', async () => {
    await writeFile(
      join(memory, 'hostile.txt'),
      `${'a'.repeat(27)}\n${'a'.repeat(26)}!\n${'a'.repeat(2999)}c\n${'a'.repeat(3000)}b\n`,
    );
    const grep = (pattern: string) =>
      call('file_grep', { slot: 'memory', pattern, path: 'hostile.txt' });
    expect(await grep('^(a|a)+$')).toEqual(text(`hostile.txt:1: ${'a'.repeat(27)}\n(1 match)`));
    expect(await grep('a*a*a*a*a*a*b')).toEqual(
      text(`hostile.txt:4: ${'a'.repeat(200)}…\n(1 match)`),
    );
    expect(await grep('(a+)+!')).toEqual(text(`hostile.txt:2: ${'a'.repeat(26)}!\n(1 match)`));
  });

  it('is case-sensitive unless the pattern starts with (?i)', async () => {
    expect(await call('file_grep', { slot: 'memory', pattern: 'BETA', path: 'a.txt' })).toEqual(
      text('(no matches)'),
    );
    expect(await call('file_grep', { slot: 'memory', pattern: '(?i)BETA', path: 'a.txt' })).toEqual(
      text('a.txt:2: beta\n(1 match)'),
    );
  });

  it('names an unsupported backreference and how to rewrite it', async () => {
    expect(await call('file_grep', { slot: 'memory', pattern: '(a)\\1' })).toEqual(
      error(
        'unsupported pattern syntax: backreference "\\1"; RE2 cannot match a group again: write the repeated text out, e.g. (ab)ab instead of (ab)\\1, or match it loosely, e.g. (\\w+) \\w+',
      ),
    );
  });

  it('stops between files when the call is aborted', async () => {
    const tool = tools.get('file_grep');
    const controller = new AbortController();
    controller.abort(new Error('cancelled'));
    await expect(
      tool?.execute({ slot: 'memory', pattern: 'beta' }, { signal: controller.signal }),
    ).rejects.toThrow('cancelled');
  });
});
