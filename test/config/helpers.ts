import { parseSource, projectFolderPath } from '../../src/config/syntax/index.ts';
import { withoutPacketFiles } from '../../src/config/packet-files.ts';
import { decodeProject } from '../../src/config/decode-project.ts';
import { sortDiagnostics } from '../../src/config/diagnostics.ts';
import type { ModelCatalog, CatalogModel } from '../../src/config/model-catalog.ts';
import type { Config } from '../../src/config/config-types.ts';
import type { Diagnostic } from '../../src/base/errors.ts';

const price = (input: number, output: number) => ({
  input,
  output,
  cacheRead: input / 10,
  cacheWrite: input,
});

/** A small registry for tests: one reasoning and one plain model per hosted provider. */
export const testCatalog: ModelCatalog = (() => {
  const models: Record<string, CatalogModel[]> = {
    openai: [
      { key: 'gpt_5', apiName: 'gpt-5', reasoning: true, pricing: price(2.5, 15) },
      { key: 'gpt_4o', apiName: 'gpt-4o', reasoning: false, pricing: price(2.5, 10) },
      { key: 'gpt_4o_mini', apiName: 'gpt-4o-mini', reasoning: false, pricing: price(0.15, 0.6) },
    ],
    anthropic: [
      {
        key: 'claude_sonnet_4_6',
        apiName: 'claude-sonnet-4-6',
        reasoning: true,
        pricing: price(3, 15),
      },
      {
        key: 'claude_haiku_4_5',
        apiName: 'claude-haiku-4-5-20251001',
        reasoning: true,
        pricing: price(1, 5),
      },
    ],
    gemini: [
      {
        key: 'gemini_2_0_flash',
        apiName: 'gemini-2.0-flash',
        reasoning: false,
        pricing: price(0.1, 0.4),
      },
    ],
    ollama: [],
  };
  return {
    find: (provider, key) => models[provider]?.find((model) => model.key === key),
    keys: (provider) => (models[provider] ?? []).map((model) => model.key),
  };
})();

/** The usual head of a test project: a secret key variable, an OpenAI model block, one agent. */
export const PRELUDE = `variable "openai_api_key" {
  secret = true
}

model "openai" {
  provider = "openai"
  api_key  = vars.openai_api_key
}

agent "writer" {
  model       = models.openai.gpt_4o
  personality = "You write."
}
`;

/** Number of lines PRELUDE occupies, so test positions can be written relative to what follows. */
export const PRELUDE_LINES = PRELUDE.split('\n').length - 1;

export interface DecodeTestOptions {
  files?: Record<string, string>;
  loaded?: Record<string, string>;
  vars?: Record<string, string>;
  env?: Record<string, string | undefined>;
  /** Folders that exist in the project (root-relative), for packet paths. */
  folders?: string[];
}

/** Parses and decodes HCL files (`main.hcl` = text) with the test catalog. */
export function decodeText(
  text: string,
  options: DecodeTestOptions = {},
): { config: Config; diagnostics: Diagnostic[] } {
  const files = { 'main.hcl': text, ...options.files };
  const syntax: Diagnostic[] = [];
  const parsed = Object.entries(files)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([path, source]) => {
      const result = parseSource(path, source);
      syntax.push(...result.diagnostics);
      return result.file;
    });
  const loaded = options.loaded ?? {};
  const folders = options.folders ?? [];
  const resolveFolder = (fromFile: string, requested: string) => {
    const located = projectFolderPath(fromFile, requested);
    if (!located.ok || folders.includes(located.relativePath)) return located;
    const message = `path ${JSON.stringify(requested)}: folder not found: ${located.relativePath}`;
    return { ok: false as const, message };
  };
  const kept = withoutPacketFiles({ files: parsed, diagnostics: syntax }, resolveFolder);
  const result = decodeProject(kept.files, {
    root: '/project',
    catalog: testCatalog,
    vars: options.vars,
    env: options.env ?? {},
    loadText: (requested) => {
      const text = loaded[requested];
      return text === undefined
        ? { ok: false, message: `load("${requested}"): file not found: ${requested}` }
        : { ok: true, text };
    },
    resolveFolder,
  });
  return {
    config: result.config,
    diagnostics: sortDiagnostics([...kept.diagnostics, ...result.diagnostics]),
  };
}

/** Diagnostics as compact rows: `error 3:5 message`. */
export function rows(diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics.map((d) => `${d.severity} ${d.line}:${d.column} ${d.message}`);
}

/** Rows of decoding `text`. */
export function diagnose(text: string, options?: DecodeTestOptions): string[] {
  return rows(decodeText(text, options).diagnostics);
}
