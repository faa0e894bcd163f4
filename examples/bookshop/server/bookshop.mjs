// A small MCP server over stdio: a bookshop's catalog and stock. sortie starts it with
// `command = "node"` (see ../main.hcl) from the project folder, and stops it when the run ends.
//
// Written with the official SDK's low-level `Server` and plain JSON Schemas, so what the model
// sees of the tools does not change with the SDK's schema conversion (the cassette stays valid).
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const BOOKS = [
  {
    isbn: '978-0-00-000001-1',
    title: 'The Lighthouse Atlas',
    author: 'Mara Quell',
    year: 2019,
    tags: ['adventure', 'sea', 'maps'],
    stock: 4,
    price: 14.5,
  },
  {
    isbn: '978-0-00-000002-8',
    title: 'Orbit of Small Things',
    author: 'Idris Fenn',
    year: 2021,
    tags: ['space', 'science', 'young adult'],
    stock: 0,
    price: 12,
  },
  {
    isbn: '978-0-00-000003-5',
    title: 'A Ladder to the Moon',
    author: 'Clea Okafor',
    year: 2017,
    tags: ['space', 'history', 'young adult'],
    stock: 2,
    price: 11.25,
  },
  {
    isbn: '978-0-00-000004-2',
    title: 'Bread for Beginners',
    author: 'Tomas Reyes',
    year: 2022,
    tags: ['cooking'],
    stock: 7,
    price: 19.99,
  },
  {
    isbn: '978-0-00-000005-9',
    title: 'The Quiet Comet',
    author: 'Idris Fenn',
    year: 2023,
    tags: ['space', 'novel'],
    stock: 1,
    price: 16,
  },
];

const TOOLS = [
  {
    name: 'search_books',
    description: 'Find books whose title, author or subject matches a word. One line per book.',
    inputSchema: {
      type: 'object',
      properties: { query: { type: 'string', description: 'A word, e.g. "space"' } },
      required: ['query'],
    },
  },
  {
    name: 'book_details',
    description: 'Everything the shop knows about one book, stock and price included.',
    inputSchema: {
      type: 'object',
      properties: { isbn: { type: 'string' } },
      required: ['isbn'],
    },
  },
  {
    name: 'wrap_gift',
    description: 'Set a copy aside, gift-wrapped, with a card carrying the note.',
    inputSchema: {
      type: 'object',
      properties: { isbn: { type: 'string' }, note: { type: 'string' } },
      required: ['isbn', 'note'],
    },
  },
];

const text = (value, isError = false) => ({ content: [{ type: 'text', text: value }], isError });

function byIsbn(isbn) {
  return BOOKS.find((book) => book.isbn === isbn);
}

function search({ query }) {
  const word = String(query).toLowerCase();
  const found = BOOKS.filter((book) =>
    [book.title, book.author, ...book.tags].some((field) => field.toLowerCase().includes(word)),
  );
  if (found.length === 0) return text(`No book matches "${query}".`);
  return text(
    found.map((book) => `${book.isbn}  ${book.title}, ${book.author} (${book.year})`).join('\n'),
  );
}

function details({ isbn }) {
  const book = byIsbn(isbn);
  if (book === undefined) return text(`No book has ISBN ${isbn}; search_books gives ISBNs.`, true);
  // Structured content only: sortie gives the model its JSON text.
  return { content: [], structuredContent: book };
}

function wrap({ isbn, note }) {
  const book = byIsbn(isbn);
  if (book === undefined) return text(`No book has ISBN ${isbn}; search_books gives ISBNs.`, true);
  if (book.stock === 0) return text(`${book.title} is out of stock; choose another book.`, true);
  return text(`Set aside one copy of ${book.title}, gift-wrapped, with the card: "${note}"`);
}

const HANDLERS = { search_books: search, book_details: details, wrap_gift: wrap };

const server = new Server({ name: 'bookshop', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const handler = HANDLERS[request.params.name];
  if (handler === undefined) return text(`Unknown tool ${request.params.name}.`, true);
  return handler(request.params.arguments ?? {});
});
await server.connect(new StdioServerTransport());
