import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/base/errors.ts';
import { configuredInputValues } from '../../src/config/input-values.ts';
import { requireVariables, secretValues } from '../../src/config/requirements.ts';
import { decodeText, diagnose, PRELUDE, rows } from './helpers.ts';

/** A mission "m" after PRELUDE: the mission starts on line 14, `inner` on line 18. */
function mission(inner: string): string {
  return `${PRELUDE}mission "m" {\n  commander {\n    model = models.openai.gpt_4o\n  }\n${inner}\n  agents = [agents.writer]\n  task "t" {\n    objective = "x"\n  }\n}\n`;
}

describe('vars.NAME without a variable block', () => {
  const PROJECT = `model "anthropic" {\n  provider = "anthropic"\n  api_key  = vars.anthropic_api_key\n}\nagent "a" {\n  model       = models.anthropic.claude_sonnet_4_6\n  personality = "Assistant for \${vars.app_name}"\n}\ntool "t" {\n  implements = builtins.http.get\n  url        = "https://x.dev/\${vars.app_name}"\n}\n`;

  it('reads it like a secret variable, warning once at its first use', () => {
    const { config, diagnostics } = decodeText(PROJECT, {
      vars: { app_name: 'crm' },
      env: { ANTHROPIC_API_KEY: 'sk-ant-env-1234' },
    });
    expect(rows(diagnostics)).toEqual([
      'warning 3:14 vars.anthropic_api_key has no variable "anthropic_api_key" block: it is read like a secret variable',
      'warning 7:34 vars.app_name has no variable "app_name" block: it is read like a secret variable',
    ]);
    expect(diagnostics[0]?.hint).toBe(
      'its value comes from --var anthropic_api_key=VALUE, SORTIE_VAR_anthropic_api_key or ANTHROPIC_API_KEY; declare it with variable "anthropic_api_key" { secret = true } to silence this warning',
    );
    expect(config.variables.get('anthropic_api_key')).toMatchObject({
      secret: true,
      declared: false,
      source: 'env',
      value: 'sk-ant-env-1234',
    });
    expect(config.variables.get('app_name')).toMatchObject({ source: 'cli', value: 'crm' });
    expect(config.agents.get('a')?.personality).toBe('Assistant for crm');
    expect(secretValues(config)).toEqual(['sk-ant-env-1234', 'crm']);
  });

  it('is needed only where its value is: unset, it fails a static string and a run, not verify', () => {
    const { config, diagnostics } = decodeText(
      `${PROJECT}mission "m" {\n  commander {\n    model = models.anthropic.claude_sonnet_4_6\n  }\n  agents = [agents.a]\n  task "t" {\n    objective = "x"\n  }\n}\n`,
    );
    expect(rows(diagnostics).filter((row) => row.startsWith('error'))).toEqual([
      'error 7:34 variable "app_name" has no value',
    ]);
    expect(() => requireVariables(config, 'm')).toThrow(ConfigError);
  });

  it('suggests a declared variable of a close name', () => {
    expect(
      diagnose(
        `${PRELUDE}tool "t" {\n  implements = builtins.http.get\n  url = "https://x.dev/\${vars.openai_api_kye}"\n}\n`,
      ),
    ).toEqual([
      'warning 16:26 vars.openai_api_kye has no variable "openai_api_kye" block: it is read like a secret variable (did you mean "openai_api_key"?)',
    ]);
  });

  it('cannot be used in an objective, where a value is shown to models and people', () => {
    expect(
      diagnose(mission('').replace('objective = "x"', 'objective = "For ${vars.team}"')),
    ).toEqual([
      'error 21:24 vars.team in an objective needs a variable "team" block: sortie reads a variable without one as a secret, and an objective is shown to models and people',
    ]);
    expect(
      diagnose(mission('').replace('objective = "x"', 'objective = "${vars.openai_api_kye}"')),
    ).toEqual(['error 21:20 unknown variable "openai_api_kye" (did you mean "openai_api_key"?)']);
  });
});

describe('constructs of the reference runtime sortie accepts', () => {
  it('decodes max_parallel without a warning, 3 when absent as in the reference runtime', () => {
    const { config, diagnostics } = decodeText(mission('  max_parallel = 2'));
    expect(rows(diagnostics)).toEqual([]);
    expect(config.missions.get('m')?.maxParallel).toBe(2);
    expect(decodeText(mission('')).config.missions.get('m')?.maxParallel).toBe(3);
    expect(diagnose(mission('  max_parallel = 0'))).toEqual([
      'error 18:18 max_parallel must be 1 or more',
    ]);
  });

  it('ignores mission secret blocks with a warning saying what to use', () => {
    const { diagnostics } = decodeText(
      mission('  secret "api" {\n    anything = vars.whatever\n  }'),
    );
    expect(diagnostics.map((d) => [rows([d])[0], d.hint])).toEqual([
      [
        'warning 18:3 `secret` blocks are ignored by sortie',
        'the reference runtime never reads them either; feed a protected input with input "NAME" { protected = true, value = vars.NAME }',
      ],
    ]);
  });

  it('gives a protected input block its value from a variable; it is then not required', () => {
    const { config, diagnostics } = decodeText(
      `variable "api_token" {\n  secret = true\n}\n${mission('  input "token" {\n    type      = "string"\n    protected = true\n    value     = vars.api_token\n  }\n  input "region" {\n    type  = "string"\n    value = "eu"\n  }')}`,
      { env: { SORTIE_VAR_api_token: 'tok-1234' } },
    );
    expect(rows(diagnostics)).toEqual([
      'warning 28:5 value is ignored on input "region": only a protected input takes its value from the configuration',
    ]);
    const m = config.missions.get('m');
    expect(
      m?.inputs?.fields.map((field) => [field.name, field.required, field.value !== undefined]),
    ).toEqual([
      ['token', false, true],
      ['region', true, false],
    ]);
    expect(m?.inputs?.jsonSchema.required).toEqual(['region']);
    expect(m && configuredInputValues(config, m)).toEqual({ token: 'tok-1234' });
  });

  it('requires the variable of a configured input value when the mission runs', () => {
    const { config } = decodeText(
      `variable "api_token" {\n  secret = true\n}\n${mission('  input "token" {\n    type      = "string"\n    protected = true\n    value     = vars.api_token\n  }')}`,
    );
    let error: unknown;
    try {
      requireVariables(config, 'm', { credentials: false });
    } catch (caught) {
      error = caught;
    }
    expect(rows((error as ConfigError).diagnostics)).toEqual([
      'error 24:17 variable "api_token" has no value',
    ]);
  });

  it('accepts builtins.human.ask and builtins.dataset.* in tools', () => {
    const { config, diagnostics } = decodeText(
      `${PRELUDE}agent "concierge" {\n  model = models.openai.gpt_4o\n  personality = "p"\n  tools = [builtins.human.ask, builtins.dataset.set, "builtins.dataset.all", builtins.human.all]\n}\n`,
    );
    expect(diagnostics).toEqual([]);
    expect(config.agents.get('concierge')?.tools).toEqual([
      { kind: 'builtin', name: 'builtins.human.ask' },
    ]);
  });

  it('warns about agent attributes it does not know, but refuses a typo of a known one', () => {
    const { diagnostics } = decodeText(
      `${PRELUDE}agent "analyst" {\n  model       = models.openai.gpt_4o\n  personality = "p"\n  goal        = "Analyze data"\n  backstory   = "Veteran"\n  tols        = [builtins.http.get]\n}\n`,
    );
    expect(diagnostics.map((d) => [rows([d])[0], d.hint])).toEqual([
      [
        'warning 17:3 unknown attribute "goal" is ignored by sortie',
        'agents use model, personality, tools, skills, reasoning, max_turns, parallel_tool_calls and the blocks skill, tool_response, pruning, compaction',
      ],
      [
        'warning 18:3 unknown attribute "backstory" is ignored by sortie',
        'agents use model, personality, tools, skills, reasoning, max_turns, parallel_tool_calls and the blocks skill, tool_response, pruning, compaction',
      ],
      ['error 19:3 unknown attribute "tols" (did you mean "tools"?)', undefined],
    ]);
  });
});

describe('diagnostics of the reference runtime constructs', () => {
  /** Each diagnostic as its row, block path and hint. */
  const described = (text: string) =>
    decodeText(text).diagnostics.map((d) => [rows([d])[0], d.path.join(' › '), d.hint]);
  const AGENT_HINT =
    'agents use model, personality, tools, skills, reasoning, max_turns, parallel_tool_calls and the blocks skill, tool_response, pruning, compaction';
  const VAULT_HINT =
    'its value comes from --var k=VALUE, SORTIE_VAR_k or K; declare it with variable "k" { secret = true } to silence this warning';

  it.each([
    [
      'max_parallel that is not a whole number',
      mission('  max_parallel = 1.5'),
      [['error 18:18 max_parallel must be a whole number', 'mission "m"', undefined]],
    ],
    [
      'a negative max_parallel',
      mission('  max_parallel = -1'),
      [['error 18:18 max_parallel must be 1 or more', 'mission "m"', undefined]],
    ],
    [
      'a configured value that is not text',
      mission(
        '  input "a" {\n    type      = "string"\n    protected = true\n    value     = 3\n  }',
      ),
      [
        [
          'error 21:17 value must be a string or a variable (vars.NAME)',
          'mission "m" › input "a"',
          undefined,
        ],
      ],
    ],
    [
      'a configured value on an input that is not a string',
      mission(
        '  input "a" {\n    type      = "number"\n    protected = true\n    value     = "42"\n  }',
      ),
      [
        [
          'error 21:5 value needs a string input: input "a" is number',
          'mission "m" › input "a"',
          'a protected input is a secret text; make its type "string"',
        ],
      ],
    ],
    [
      'a configured value on an input that is not protected',
      mission('  input "a" {\n    type  = "string"\n    value = "eu"\n  }'),
      [
        [
          'warning 20:5 value is ignored on input "a": only a protected input takes its value from the configuration',
          'mission "m" › input "a"',
          'use default for the value of an input that is not protected',
        ],
      ],
    ],
    [
      'an undeclared variable in a configured value',
      mission(
        '  input "a" {\n    type      = "string"\n    protected = true\n    value     = "t-${vars.k}"\n  }',
      ),
      [
        [
          'warning 21:22 vars.k has no variable "k" block: it is read like a secret variable',
          'mission "m" › input "a"',
          VAULT_HINT,
        ],
      ],
    ],
    [
      'protected inside an object input',
      mission(
        '  inputs = {\n    login = object({ password = string("P", { protected = true }) })\n  }',
      ),
      [
        [
          'warning 19:59 protected is ignored inside an object: only top-level mission inputs are protected',
          'mission "m"',
          'make the value a top-level mission input to hide it',
        ],
      ],
    ],
    [
      'an unknown agent attribute and a typo of a known one',
      `${PRELUDE}agent "a" {\n  model       = models.openai.gpt_4o\n  personality = "p"\n  goal        = "g"\n  personalty  = "q"\n}\n`,
      [
        ['warning 17:3 unknown attribute "goal" is ignored by sortie', 'agent "a"', AGENT_HINT],
        [
          'error 18:3 unknown attribute "personalty" (did you mean "personality"?)',
          'agent "a"',
          undefined,
        ],
      ],
    ],
    [
      'a plugin block, still refused with why',
      'plugin "p" {\n  version = "local"\n}\n',
      [
        [
          'error 1:1 `plugin` blocks are not supported by sortie',
          '',
          'plugins are Go programs served over go-plugin/gRPC, which sortie does not run; an `mcp` server block gives agents tools instead',
        ],
      ],
    ],
  ])('reports %s', (_name, text, expected) => {
    expect(described(text)).toEqual(expected);
  });
});
