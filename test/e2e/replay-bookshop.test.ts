/**
 * The bookshop example runs offline from its shipped cassette, exactly as its README says:
 * no key, no network; the model is replayed while its MCP server (server/bookshop.mjs) runs
 * for real, and the server's answers match the ones the cassette was recorded with. The
 * bookseller loads its skill, whose tool (another of the server's) it is offered only then.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, cleanUpAll, jsonLines, runDirs, sortie } from './agent-tools-harness.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';

const CASSETTE = 'examples/bookshop/cassette.jsonl';
const CARD = 'For you, who looks up at night: the true story of how people climbed to the Moon.';
const RECOMMENDATION =
  'A Ladder to the Moon by Clea Okafor (2017, $11.25, 2 in stock): the true story of how ' +
  'people reached the Moon, told for young adults. Orbit of Small Things would fit too, but ' +
  `it is out of stock. A copy is set aside, gift-wrapped, with the card: "${CARD}"`;
const SKILL_FILE = 'examples/bookshop/skills/gift-wrap.md';

afterAll(cleanUpAll);

describe('examples/bookshop offline (CLI, shipped cassette, real MCP server)', () => {
  it('documents the offline command in its README', async () => {
    const readme = await readFile(join(ROOT, 'examples/bookshop/README.md'), 'utf8');
    expect(readme).toContain(`sortie run examples/bookshop --replay-model ${CASSETTE}\n`);
  });

  it('ships a cassette that says it is scripted, not real model output', async () => {
    const [header, ...entries] = jsonLines(await readFile(join(ROOT, CASSETTE), 'utf8'));
    expect(String(header?.note).startsWith('scripted, not real model output')).toBe(true);
    expect(entries).toHaveLength(9);
    // The skill's tool is offered from the request after the load, not before.
    const agentTools = entries
      .filter((entry) => entry.actor === 'agent:recommend/bookseller')
      .map((entry) =>
        (entry.request as { tools: Array<{ name: string }> }).tools
          .map((tool) => tool.name)
          .filter((name) => name.startsWith('mcp_') || name === 'load_skill'),
      );
    const before = ['mcp_shop_search_books', 'mcp_shop_book_details', 'load_skill'];
    expect(agentTools).toEqual([
      before,
      before,
      before,
      [...before, 'mcp_shop_wrap_gift'],
      [...before, 'mcp_shop_wrap_gift'],
    ]);
  });

  it('runs the mission with the MCP server answering for real and exits 0', async () => {
    const stateDir = join(await temporaryDirectory('bookshop-offline'), 'state');
    const run = await sortie([
      'run',
      'examples/bookshop',
      '--replay-model',
      CASSETTE,
      '--state-dir',
      stateDir,
      '--quiet',
    ]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const [runDir] = await runDirs(stateDir);
    const journal = jsonLines(await readFile(join(String(runDir), 'journal.jsonl'), 'utf8'));
    const results = journal
      .filter((event) => event.type === 'tool.completed' && event.actor !== 'commander:recommend')
      .map((event) => [event.tool, event.isError, event.result]);
    expect(results).toEqual([
      [
        'mcp_shop_search_books',
        false,
        '978-0-00-000002-8  Orbit of Small Things, Idris Fenn (2021)\n' +
          '978-0-00-000003-5  A Ladder to the Moon, Clea Okafor (2017)\n' +
          '978-0-00-000005-9  The Quiet Comet, Idris Fenn (2023)',
      ],
      [
        'mcp_shop_book_details',
        false,
        '{"isbn":"978-0-00-000002-8","title":"Orbit of Small Things","author":"Idris Fenn","year":2021,"tags":["space","science","young adult"],"stock":0,"price":12}',
      ],
      [
        'mcp_shop_book_details',
        false,
        '{"isbn":"978-0-00-000003-5","title":"A Ladder to the Moon","author":"Clea Okafor","year":2017,"tags":["space","history","young adult"],"stock":2,"price":11.25}',
      ],
      [
        'load_skill',
        false,
        'Skill "gift_wrap" loaded. Tools it adds, offered from your next turn: mcp_shop_wrap_gift.\n\n# Skill: gift_wrap\n\n' +
          (await readFile(join(ROOT, SKILL_FILE), 'utf8')).trimEnd(),
      ],
      [
        'mcp_shop_wrap_gift',
        false,
        `Set aside one copy of A Ladder to the Moon, gift-wrapped, with the card: "${CARD}"`,
      ],
    ]);
    expect(journal.find((event) => event.type === 'task.succeeded')).toMatchObject({
      task: 'recommend',
      summary: RECOMMENDATION,
    });
  }, 60_000);
});
