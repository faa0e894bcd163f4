import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/base/errors.ts';
import { requireVariables, secretValues, variableValues } from '../../src/config/requirements.ts';
import { resolveModel } from '../../src/config/resolve-model.ts';
import { decodeText, PRELUDE, rows } from './helpers.ts';

const PROJECT = `${PRELUDE}variable "anthropic_api_key" {
  secret = true
}
variable "region" {
}
model "anthropic" {
  provider = "anthropic"
  api_key  = vars.anthropic_api_key
}
tool "lookup" {
  implements = builtins.http.get
  description = "Lookup"
  url = "https://\${vars.region}.example.com"
}
agent "clerk" {
  model = models.anthropic.claude_haiku_4_5
  personality = "p"
  tools = [tools.lookup]
}
mission "local_only" {
  commander {
    model = models.openai.gpt_4o
  }
  agents = [agents.writer]
  task "t" {
    objective = "x"
  }
}
mission "uses_clerk" {
  commander {
    model = models.openai.gpt_4o
  }
  task "t" {
    objective = "x"
    agents = [agents.clerk]
    router {
      route {
        target = missions.local_only
        condition = "done"
      }
    }
  }
}
`;

function failure(run: () => unknown): ConfigError | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  return undefined;
}

describe('requireVariables', () => {
  it('reports each unset variable the mission needs once, at its first use, with the three ways to set it', () => {
    const { config, diagnostics } = decodeText(PROJECT);
    expect(diagnostics).toEqual([]);
    const error = failure(() => requireVariables(config, 'uses_clerk'));
    expect(rows(error?.diagnostics ?? [])).toEqual([
      'error 7:14 variable "openai_api_key" has no value',
      'error 21:14 variable "anthropic_api_key" has no value',
      'error 26:20 variable "region" has no value',
    ]);
    expect(error?.diagnostics[1]?.hint).toBe(
      'set it with --var anthropic_api_key=VALUE, the environment variable SORTIE_VAR_anthropic_api_key, or ANTHROPIC_API_KEY',
    );
  });

  it("leaves the models' credentials out when asked to, still requiring tool variables", () => {
    const { config } = decodeText(PROJECT);
    const error = failure(() => requireVariables(config, 'uses_clerk', { credentials: false }));
    expect(rows(error?.diagnostics ?? [])).toEqual(['error 26:20 variable "region" has no value']);
    const { config: withRegion } = decodeText(PROJECT, { vars: { region: 'eu' } });
    expect(
      failure(() => requireVariables(withRegion, 'uses_clerk', { credentials: false })),
    ).toBeUndefined();
  });

  it('asks only for what the mission uses', () => {
    const { config } = decodeText(PROJECT, { env: { OPENAI_API_KEY: 'sk-open' } });
    expect(failure(() => requireVariables(config, 'local_only'))).toBeUndefined();
    expect(
      rows(failure(() => requireVariables(config, 'uses_clerk'))?.diagnostics ?? []),
    ).toHaveLength(2);
  });
});

describe('resolveModel', () => {
  it('resolves provider, API name, key, prices and the reasoning flag', () => {
    const { config } = decodeText(PROJECT, { env: { ANTHROPIC_API_KEY: 'sk-ant-123' } });
    expect(resolveModel(config, { config: 'anthropic', key: 'claude_haiku_4_5' })).toEqual({
      provider: 'anthropic',
      config: 'anthropic',
      key: 'claude_haiku_4_5',
      apiName: 'claude-haiku-4-5-20251001',
      apiKey: 'sk-ant-123',
      promptCaching: true,
      reasoningCapable: true,
      pricing: { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1 },
    });
  });

  it('leaves out a key whose variable is unset instead of failing (replaced clients need none)', () => {
    const { config } = decodeText(PROJECT);
    expect(resolveModel(config, { config: 'openai', key: 'gpt_4o' })).toEqual({
      provider: 'openai',
      config: 'openai',
      key: 'gpt_4o',
      apiName: 'gpt-4o',
      promptCaching: true,
      reasoningCapable: false,
      pricing: { input: 2.5, output: 10, cacheRead: 0.25, cacheWrite: 2.5 },
    });
  });

  it('leaves out a base URL only partly set, and fills one fully set', () => {
    const hcl = `variable "host" {
}
variable "port" {
  default = "11434"
}
model "local" {
  provider = "ollama"
  base_url = "http://\${vars.host}:\${vars.port}/v1"
  aliases  = { small = "qwen3:8b" }
}
`;
    const ref = { config: 'local', key: 'small' };
    expect(resolveModel(decodeText(hcl).config, ref).baseUrl).toBeUndefined();
    const { config } = decodeText(hcl, { vars: { host: 'gpu' } });
    expect(resolveModel(config, ref).baseUrl).toBe('http://gpu:11434/v1');
  });

  it('throws a ConfigError for an unknown model', () => {
    const { config } = decodeText(PROJECT);
    const error = failure(() => resolveModel(config, { config: 'openai', key: 'gpt_9' }));
    expect(rows(error?.diagnostics ?? [])).toEqual(['error 0:0 unknown model models.openai.gpt_9']);
  });
});

describe('secrets and values', () => {
  it('lists secret variable values and variable values for evaluation', () => {
    const { config } = decodeText(PROJECT, { vars: { openai_api_key: 'sk-1234', region: 'eu' } });
    expect(secretValues(config)).toEqual(['sk-1234']);
    expect(variableValues(config)).toEqual({ openai_api_key: 'sk-1234', region: 'eu' });
  });
});
