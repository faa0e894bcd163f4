import type { ToolDefinition } from '../../models/model-types.ts';
import { defineTool, objectSchema } from '../define-tool.ts';
import { toolResult } from '../tool-result.ts';
import type { AgentTool, ToolOutcome } from '../builtins/agent-tool.ts';
import { errorOutcome, okOutcome, textOutcome } from '../builtins/agent-tool.ts';
import { jsonTypeName, lookupDotPath, type DotPathLookup } from './dot-path.ts';
import type { ResultStore, StoredResult } from './result-store.ts';

/** The most characters one `result_chunk` or `result_get` returns. */
export const MAX_CHUNK_CHARS = 16_000;
/** The most items one `result_items` returns. */
export const MAX_ITEMS_PER_PAGE = 100;
const MAX_KEYS = 1_000;
const SAMPLE_ITEMS = 5;

const ID_PROPERTY = { type: 'string', description: 'A result id such as result_1' };

function schema(properties: Record<string, unknown>, required: string[]): Record<string, unknown> {
  return objectSchema(['id', ...required], { id: ID_PROPERTY, ...properties });
}

type MissingPath = Extract<DotPathLookup, { found: false }>;

type Handler = (stored: StoredResult, args: Record<string, unknown>) => ToolOutcome;

/** One result tool: its definition and how it answers from a stored result. */
interface ResultToolSpec {
  definition: ToolDefinition;
  handle: Handler;
}

function resultTool(spec: ResultToolSpec, store: ResultStore): AgentTool {
  return {
    definition: spec.definition,
    async execute(args) {
      const id = args.id as string;
      const stored = await store.get(id);
      if (stored === undefined) return errorOutcome(`no stored result "${id}"`);
      return spec.handle(stored, args);
    },
  };
}

function describeValue(value: unknown): Record<string, unknown> {
  if (Array.isArray(value))
    return { type: 'array', total_items: value.length, sample: value.slice(0, SAMPLE_ITEMS) };
  if (typeof value === 'object' && value !== null)
    return {
      type: 'object',
      keys: Object.keys(value).slice(0, MAX_KEYS),
      total_keys: Object.keys(value).length,
    };
  return { type: jsonTypeName(value) };
}

function info(stored: StoredResult): ToolOutcome {
  const fields: Record<string, unknown> = { result_id: stored.id, type: stored.type };
  if (stored.type === 'array') fields.total_items = (stored.value as unknown[]).length;
  if (stored.type === 'object') fields.total_keys = Object.keys(stored.value as object).length;
  fields.total_bytes = stored.totalBytes;
  fields.total_chars = stored.text.length;
  return okOutcome(fields);
}

function items(stored: StoredResult, args: Record<string, unknown>): ToolOutcome {
  if (stored.type !== 'array') {
    return errorOutcome(
      `result "${stored.id}" is ${stored.type === 'object' ? 'an object' : 'text'}, not an array: use ${stored.type === 'object' ? 'result_keys and result_get' : 'result_chunk'}`,
    );
  }
  const all = stored.value as unknown[];
  const offset = (args.offset as number | undefined) ?? 0;
  const count = (args.count as number | undefined) ?? 20;
  return okOutcome({
    result_id: stored.id,
    total_items: all.length,
    offset,
    items: all.slice(offset, offset + count),
  });
}

function notJson(stored: StoredResult): ToolOutcome {
  return errorOutcome(`result "${stored.id}" is text, not JSON: use result_chunk`);
}

function pathNotFound(stored: StoredResult, path: string, lookup: MissingPath): ToolOutcome {
  const where = lookup.at === '' ? 'the top level' : `"${lookup.at}"`;
  return errorOutcome(
    `path "${path}" not found in result "${stored.id}": no "${lookup.missing}" at ${where}`,
  );
}

function get(stored: StoredResult, args: Record<string, unknown>): ToolOutcome {
  if (stored.type === 'text') return notJson(stored);
  const path = args.path as string;
  const lookup = lookupDotPath(stored.value, path);
  if (!lookup.found) return pathNotFound(stored, path, lookup);
  const text = JSON.stringify(lookup.value);
  if (text.length <= MAX_CHUNK_CHARS)
    return okOutcome({ result_id: stored.id, path, value: lookup.value });
  // A subtree too big to return whole is summarised like an intercepted result.
  return {
    content: toolResult.status('partial', {
      result_id: stored.id,
      path,
      ...describeValue(lookup.value),
      total_bytes: Buffer.byteLength(text, 'utf8'),
      note: 'value too large to return whole: narrow the path with result_keys and result_get',
    }),
    isError: false,
  };
}

function keys(stored: StoredResult, args: Record<string, unknown>): ToolOutcome {
  if (stored.type === 'text') return notJson(stored);
  const path = (args.path as string | undefined) ?? '';
  const lookup = lookupDotPath(stored.value, path);
  if (!lookup.found) return pathNotFound(stored, path, lookup);
  const value = lookup.value;
  if (Array.isArray(value))
    return okOutcome({ result_id: stored.id, path, type: 'array', total_items: value.length });
  if (typeof value !== 'object' || value === null)
    return errorOutcome(
      `value at "${path}" is a ${jsonTypeName(value)}, which has no keys: use result_get`,
    );
  const all = Object.keys(value);
  const extra = all.length > MAX_KEYS ? { total_keys: all.length } : {};
  return okOutcome({
    result_id: stored.id,
    path,
    type: 'object',
    keys: all.slice(0, MAX_KEYS),
    ...extra,
  });
}

function chunk(stored: StoredResult, args: Record<string, unknown>): ToolOutcome {
  const offset = (args.offset as number | undefined) ?? 0;
  const length = (args.length as number | undefined) ?? MAX_CHUNK_CHARS;
  if (offset >= stored.text.length) {
    return errorOutcome(
      `offset ${offset} is past the end of result "${stored.id}" (${stored.text.length} characters)`,
    );
  }
  return textOutcome(stored.text.slice(offset, offset + length));
}

/** The five result tools, in offering order. */
const RESULT_TOOL_SPECS: readonly ResultToolSpec[] = [
  {
    definition: defineTool({
      name: 'result_info',
      description: 'Describe a stored large result: type, item or key count, size.',
      parameters: schema({}, []),
    }),
    handle: info,
  },
  {
    definition: defineTool({
      name: 'result_items',
      description: 'Page through a stored array result.',
      parameters: schema(
        {
          offset: { type: 'integer', minimum: 0, default: 0 },
          count: { type: 'integer', minimum: 1, maximum: MAX_ITEMS_PER_PAGE, default: 20 },
        },
        [],
      ),
    }),
    handle: items,
  },
  {
    definition: defineTool({
      name: 'result_get',
      description: 'The value at a dot path (e.g. data.items.0.name) of a stored JSON result.',
      parameters: schema(
        { path: { type: 'string', description: 'Dot path; array items by index' } },
        ['path'],
      ),
    }),
    handle: get,
  },
  {
    definition: defineTool({
      name: 'result_keys',
      description:
        'The keys of the object at a dot path (default the top) of a stored JSON result.',
      parameters: schema(
        { path: { type: 'string', description: 'Dot path; default the top level' } },
        [],
      ),
    }),
    handle: keys,
  },
  {
    definition: defineTool({
      name: 'result_chunk',
      description: 'Raw text of a stored result from a character offset (plain text).',
      parameters: schema(
        {
          offset: { type: 'integer', minimum: 0, default: 0 },
          length: {
            type: 'integer',
            minimum: 1,
            maximum: MAX_CHUNK_CHARS,
            default: MAX_CHUNK_CHARS,
          },
        },
        [],
      ),
    }),
    handle: chunk,
  },
];

/** The result tools' definitions, in offering order (a commander's machine offers these). */
export const RESULT_TOOL_DEFINITIONS: readonly ToolDefinition[] = RESULT_TOOL_SPECS.map(
  (spec) => spec.definition,
);

/** The five result tools over one run's store, in offering order. */
export function resultToolsFor(store: ResultStore): AgentTool[] {
  return RESULT_TOOL_SPECS.map((spec) => resultTool(spec, store));
}
