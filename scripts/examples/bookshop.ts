/**
 * The bookshop example's script, for its default reader ("a teenager who loves space"): the
 * commander delegates, the bookseller searches the shop's MCP server, reads two books'
 * details in one turn (one is out of stock), loads the gift_wrap skill, has the other book
 * wrapped with the skill's tool (another of the server's) and recommends it. The tool
 * results in the recorded requests are the example server's real answers.
 */
import type { ScriptTurn } from '../../src/testing/index.ts';
import type { ExampleScript } from '../record-cassette.ts';

const COMMANDER = 'commander:recommend';
const BOOKSELLER = 'agent:recommend/bookseller';
const LADDER = '978-0-00-000003-5';
const ORBIT = '978-0-00-000002-8';

const CARD = 'For you, who looks up at night: the true story of how people climbed to the Moon.';

const RECOMMENDATION =
  'A Ladder to the Moon by Clea Okafor (2017, $11.25, 2 in stock): the true story of how ' +
  'people reached the Moon, told for young adults. Orbit of Small Things would fit too, but ' +
  `it is out of stock. A copy is set aside, gift-wrapped, with the card: "${CARD}"`;

/** A turn of `actor` calling tools. */
function calls(
  actor: string,
  toolCalls: Array<{ name: string; arguments: Record<string, unknown> }>,
  input: number,
  output: number,
): ScriptTurn {
  return { match: { actor }, toolCalls, usage: { input, output, cacheRead: 1024 } };
}

/** examples/bookshop, run with its default input. */
export const bookshopExample: ExampleScript = {
  name: 'bookshop',
  mission: 'recommend',
  inputs: {},
  keyVariables: ['openai_api_key'],
  turns: [
    calls(
      COMMANDER,
      [
        {
          name: 'set_subtasks',
          arguments: { subtasks: ['Have the bookseller pick and wrap a book'] },
        },
      ],
      1190,
      26,
    ),
    calls(
      COMMANDER,
      [
        {
          name: 'call_agent',
          arguments: {
            name: 'bookseller',
            task: 'Recommend one book in stock for a teenager who loves space, and have it gift-wrapped.',
          },
        },
      ],
      1250,
      38,
    ),
    calls(BOOKSELLER, [{ name: 'mcp_shop_search_books', arguments: { query: 'space' } }], 310, 18),
    calls(
      BOOKSELLER,
      [
        { name: 'mcp_shop_book_details', arguments: { isbn: ORBIT } },
        { name: 'mcp_shop_book_details', arguments: { isbn: LADDER } },
      ],
      420,
      44,
    ),
    calls(BOOKSELLER, [{ name: 'load_skill', arguments: { name: 'gift_wrap' } }], 560, 16),
    calls(
      BOOKSELLER,
      [{ name: 'mcp_shop_wrap_gift', arguments: { isbn: LADDER, note: CARD } }],
      720,
      40,
    ),
    { match: { actor: BOOKSELLER }, text: RECOMMENDATION, usage: { input: 790, output: 70 } },
    calls(COMMANDER, [{ name: 'complete_subtask', arguments: {} }], 1420, 12),
    calls(COMMANDER, [{ name: 'task_complete', arguments: { summary: RECOMMENDATION } }], 1470, 58),
  ],
};
