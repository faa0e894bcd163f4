/**
 * `sortie models` text: per model block a header and one row per model key with API name,
 * prices in USD per 1M tokens (input, output, cache read, cache write) and the reasoning
 * flag, in aligned columns. Local (ollama) keys cost $0; keys with no known price say so.
 */
import type { Config, ModelBlockConfig, DeferredString } from '../config/config-types.ts';
import type { Pricing, ProviderName } from '../models/model-types.ts';
import { builtinModelKeys, findBuiltinModel } from '../models/registry.ts';
import { alignRows } from '../present/columns.ts';
import { formatPrice } from '../present/money.ts';

const HEADINGS = [
  'KEY',
  'API NAME',
  'INPUT',
  'OUTPUT',
  'CACHE READ',
  'CACHE WRITE',
  'REASONING',
  'NOTE',
];
const NOTE_COLUMN = 7;
/** Columns aligned to the right (the prices). */
const NUMERIC = new Set([2, 3, 4, 5]);

/** Every model block of the project, one table each, blocks separated by a blank line. */
export function formatModels(config: Config): string {
  const blocks = [...config.models.values()];
  if (blocks.length === 0) return 'no model blocks in this project\n';
  return `${blocks.map(formatBlock).join('\n')}\n$ per 1M tokens\n`;
}

/** Hosted providers with built-in keys, in the order `sortie models` lists them. */
const BUILTIN_PROVIDERS: readonly ProviderName[] = ['openai', 'anthropic', 'gemini'];

/** The built-in keys of each hosted provider, for `sortie models` outside a project. */
export function formatBuiltinModels(): string {
  const tables = BUILTIN_PROVIDERS.map((provider) => {
    const rows = builtinModelKeys(provider).flatMap((key) => {
      const model = findBuiltinModel(provider, key);
      if (model === undefined) return [];
      return [[key, model.apiName, ...priceCells(model.pricing), model.reasoning ? 'yes' : 'no']];
    });
    return `provider "${provider}"\n${tableText([HEADINGS.slice(0, NOTE_COLUMN), ...rows])}`;
  });
  return [
    'no project here (no .hcl files): the built-in models a model block of each provider has',
    '',
    `${tables.join('\n')}\n$ per 1M tokens\n`,
  ].join('\n');
}

/** One block: `model "openai" · openai · prompt caching on` and its table. */
export function formatBlock(block: ModelBlockConfig): string {
  const facts = [
    block.provider,
    `prompt caching ${block.promptCaching ? 'on' : 'off'}`,
    ...(block.baseUrl === undefined ? [] : [`base_url ${deferredText(block.baseUrl)}`]),
  ];
  const rows = [...block.models.values()].map((model) => {
    const notes = [
      ...(block.aliases.has(model.key) ? ['alias'] : []),
      ...(block.pricing.has(model.key) ? ['custom price'] : []),
      ...(model.pricing === undefined ? ['unpriced'] : []),
    ];
    return [
      model.key,
      model.apiName,
      ...priceCells(model.pricing),
      model.reasoningCapable ? 'yes' : 'no',
      notes.join(', '),
    ];
  });
  // The NOTE column only when some key has a note.
  const columns = rows.some((row) => row[NOTE_COLUMN] !== '') ? HEADINGS.length : NOTE_COLUMN;
  const table = [HEADINGS, ...rows].map((row) => row.slice(0, columns));
  return `model "${block.name}" · ${facts.join(' · ')}\n${tableText(table)}`;
}

function priceCells(pricing: Pricing | undefined): string[] {
  if (pricing === undefined) return ['-', '-', '-', '-'];
  return [pricing.input, pricing.output, pricing.cacheRead, pricing.cacheWrite].map(formatPrice);
}

function deferredText(value: DeferredString): string {
  return value.segments
    .map((segment) => ('text' in segment ? segment.text : `\${vars.${segment.variable}}`))
    .join('');
}

function tableText(rows: string[][]): string {
  return alignRows(rows, NUMERIC)
    .map((row) => `  ${row.join('  ')}`.trimEnd())
    .concat('')
    .join('\n');
}
