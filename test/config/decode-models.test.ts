import { describe, expect, it } from 'vitest';
import { decodeText, diagnose, PRELUDE } from './helpers.ts';

const KEY = `variable "key" {\n  secret = true\n}\n`; // lines 1-3

describe('model blocks', () => {
  it('rejects an unknown provider with a suggestion', () => {
    expect(diagnose(`${KEY}model "m" {\n  provider = "openia"\n  api_key = vars.key\n}\n`))
      .toMatchInlineSnapshot(`
      [
        "error 5:14 provider must be one of openai, anthropic, gemini, ollama (did you mean "openai"?)",
      ]
    `);
  });

  it('requires api_key for hosted providers, base_url and aliases for ollama', () => {
    expect(
      diagnose(
        `model "a" {\n  provider = "anthropic"\n}\nmodel "l" {\n  provider = "ollama"\n}\nmodel "e" {\n  provider = "ollama"\n  base_url = "http://localhost:11434/v1"\n  aliases = {}\n}\n`,
      ),
    ).toMatchInlineSnapshot(`
      [
        "error 1:1 missing required attribute "api_key": provider "anthropic" needs an API key",
        "error 4:1 missing required attribute "base_url": provider "ollama" needs the URL of your server, e.g. "http://localhost:11434/v1"",
        "error 4:1 missing required attribute "aliases": provider "ollama" has no built-in models; map keys to the names your server knows",
        "error 10:13 aliases must name at least one model for provider "ollama"",
      ]
    `);
  });

  it('checks pricing labels against the block keys and requires input and output', () => {
    expect(
      diagnose(
        `${KEY}model "m" {\n  provider = "openai"\n  api_key = vars.key\n  pricing "gpt_4" {\n    input  = 1\n    output = 2\n  }\n  pricing "gpt_4o" {\n    input = 1\n  }\n  pricing "gpt_5" {\n    input = -1\n    output = 2\n  }\n}\n`,
      ),
    ).toMatchInlineSnapshot(`
      [
        "error 7:11 pricing "gpt_4" does not name a model key of this block (did you mean "gpt_4o"?)",
        "error 11:3 missing required attribute "output"",
        "error 15:13 input must be 0 or more",
      ]
    `);
  });

  it('lists the valid keys in the hint of an unknown pricing label', () => {
    const { diagnostics } = decodeText(
      `model "l" {\n  provider = "ollama"\n  base_url = "http://x/v1"\n  aliases = { qwen = "qwen3:8b" }\n  pricing "llama" {\n    input = 1\n    output = 1\n  }\n}\n`,
    );
    expect(diagnostics.map((d) => d.hint)).toEqual(['valid keys: qwen']);
  });

  it('resolves keys: aliases first, custom pricing over the registry, local models free', () => {
    const { config, diagnostics } = decodeText(
      `${KEY}model "openai" {\n  provider = "openai"\n  api_key = "sk-\${vars.key}"\n  prompt_caching = false\n  aliases = { fast = "gpt-4o-mini", custom = "my-finetune" }\n  pricing "gpt_4o" {\n    input = 1\n    output = 2\n  }\n}\nmodel "local" {\n  provider = "ollama"\n  base_url = "http://localhost:11434/v1"\n  aliases = { qwen = "qwen3:8b" }\n}\n`,
    );
    expect(diagnostics).toEqual([]);
    const openai = config.models.get('openai');
    expect(openai?.promptCaching).toBe(false);
    expect([...(openai?.models.keys() ?? [])]).toEqual([
      'fast',
      'custom',
      'gpt_5',
      'gpt_4o',
      'gpt_4o_mini',
    ]);
    expect(openai?.models.get('fast')).toEqual({
      key: 'fast',
      apiName: 'gpt-4o-mini',
      reasoningCapable: false,
      pricing: { input: 0.15, output: 0.6, cacheRead: 0.015, cacheWrite: 0.15 },
    });
    expect(openai?.models.get('custom')).toEqual({
      key: 'custom',
      apiName: 'my-finetune',
      reasoningCapable: false,
    });
    expect(openai?.models.get('gpt_4o')?.pricing).toEqual({
      input: 1,
      output: 2,
      cacheRead: 0,
      cacheWrite: 0,
    });
    expect(
      openai?.apiKey?.segments.map((segment) =>
        'text' in segment ? segment.text : segment.variable,
      ),
    ).toEqual(['sk-', 'key']);
    expect(config.models.get('local')?.models.get('qwen')).toEqual({
      key: 'qwen',
      apiName: 'qwen3:8b',
      reasoningCapable: false,
      pricing: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    });
  });
});

describe('pricing of a local model', () => {
  it('is ignored with a warning: a local model costs $0', () => {
    const { config, diagnostics } = decodeText(
      `model "local" {\n  provider = "ollama"\n  base_url = "http://localhost:11434/v1"\n  aliases = { qwen = "qwen3:8b" }\n  pricing "qwen" {\n    input  = 3\n    output = 15\n  }\n}\n`,
    );
    expect(
      diagnostics.map((diagnostic) => ({
        severity: diagnostic.severity,
        message: diagnostic.message,
        hint: diagnostic.hint,
      })),
    ).toEqual([
      {
        severity: 'warning',
        message:
          'pricing "qwen" is ignored: a local model\'s dollar cost is always $0 (its tokens are still counted)',
        hint: 'remove this pricing block',
      },
    ]);
    expect(config.models.get('local')?.models.get('qwen')?.pricing).toEqual({
      input: 0,
      output: 0,
      cacheRead: 0,
      cacheWrite: 0,
    });
  });

  it('still reports a duplicate block as an error', () => {
    const { diagnostics } = decodeText(
      `model "local" {\n  provider = "ollama"\n  base_url = "http://localhost:11434/v1"\n  aliases = { qwen = "qwen3:8b" }\n  pricing "qwen" {\n    input  = 3\n    output = 15\n  }\n  pricing "qwen" {\n    input  = 1\n    output = 1\n  }\n}\n`,
    );
    expect(diagnostics.map((diagnostic) => [diagnostic.severity, diagnostic.message])).toEqual([
      [
        'warning',
        'pricing "qwen" is ignored: a local model\'s dollar cost is always $0 (its tokens are still counted)',
      ],
      ['error', 'duplicate pricing "qwen"'],
    ]);
  });
});

describe('model references', () => {
  const agent = (model: string) =>
    `${PRELUDE}agent "b" {\n  model = ${model}\n  personality = "p"\n}\n`; // model on line 16

  it('reports an unknown model block and an unknown key with suggestions', () => {
    expect(diagnose(agent('models.opena.gpt_4o'))).toMatchInlineSnapshot(`
      [
        "error 15:11 unknown model block "opena" (did you mean "openai"?)",
      ]
    `);
    expect(diagnose(agent('models.openai.gpt_4'))).toMatchInlineSnapshot(`
      [
        "error 15:11 unknown model "gpt_4" in model block "openai" (did you mean "gpt_4o"?)",
      ]
    `);
    expect(diagnose(agent('agents.writer'))).toMatchInlineSnapshot(`
      [
        "error 15:11 model expects a reference like models.CONFIG.KEY, got agents.writer",
      ]
    `);
  });

  it('accepts a bare key string when one block has it, and lists candidates when several do', () => {
    const { config, diagnostics } = decodeText(agent('"gpt_4o_mini"'));
    expect(diagnostics).toEqual([]);
    expect(config.agents.get('b')?.model).toEqual({ config: 'openai', key: 'gpt_4o_mini' });
    const second = `model "backup" {\n  provider = "openai"\n  api_key = vars.openai_api_key\n}\n`;
    expect(diagnose(agent('"gpt_4o"') + second)).toMatchInlineSnapshot(`
      [
        "error 15:11 model "gpt_4o" is ambiguous: models.openai.gpt_4o, models.backup.gpt_4o",
      ]
    `);
    expect(diagnose(agent('"gpt_4x"'))).toMatchInlineSnapshot(`
      [
        "error 15:11 unknown model "gpt_4x" (did you mean "gpt_4o"?)",
      ]
    `);
  });

  it('warns when reasoning is set on a model that cannot reason, case-insensitively accepting levels', () => {
    expect(
      diagnose(
        `${PRELUDE}model "local" {\n  provider = "ollama"\n  base_url = "http://localhost:11434/v1"\n  aliases = { qwen = "qwen3:8b" }\n}\nagent "thinker" {\n  model = models.openai.gpt_5\n  personality = "p"\n  reasoning = "HIGH"\n}\nagent "plain" {\n  model = models.openai.gpt_4o\n  personality = "p"\n  reasoning = "high"\n}\nagent "small" {\n  model = models.local.qwen\n  personality = "p"\n  reasoning = "Low"\n}\nagent "bad" {\n  model = models.openai.gpt_5\n  personality = "p"\n  reasoning = "max"\n}\nmission "m" {\n  commander {\n    model = models.openai.gpt_4o\n    reasoning = "medium"\n  }\n  task "t" {\n    objective = "x"\n  }\n}\n`,
      ),
    ).toMatchInlineSnapshot(`
      [
        "warning 27:3 agent "plain": reasoning = "high" has no effect: model gpt-4o (models.openai.gpt_4o) is not reasoning-capable",
        "warning 32:3 agent "small": reasoning = "low" has no effect: model qwen3:8b (models.local.qwen) is not reasoning-capable",
        "error 37:15 reasoning must be one of low, medium, high",
        "warning 42:5 commander of mission "m": reasoning = "medium" has no effect: model gpt-4o (models.openai.gpt_4o) is not reasoning-capable",
      ]
    `);
  });
});
