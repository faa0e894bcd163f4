import { describe, expect, it } from 'vitest';
import { decodeText, PRELUDE, rows } from './helpers.ts';

describe('smoke', () => {
  it('decodes a one-task mission without diagnostics', () => {
    const { config, diagnostics } = decodeText(`${PRELUDE}
mission "hello" {
  commander {
    model = models.openai.gpt_4o
  }
  agents = [agents.writer]
  task "greet" {
    objective = "Say hello"
  }
}
`);
    expect(rows(diagnostics)).toEqual([]);
    expect(config.missions.get('hello')?.tasks.get('greet')?.agents).toEqual(['writer']);
  });
});

describe('declaration order', () => {
  it('resolves references whatever the file and block order, keeping declaration order in maps', () => {
    const { config, diagnostics } = decodeText(
      `mission "second" {\n  commander {\n    model = models.openai.gpt_4o\n  }\n  task "z" {\n    objective = "z"\n  }\n  task "a" {\n    objective = "a"\n    depends_on = [tasks.z]\n  }\n}\n`,
      {
        files: {
          'a-agents.hcl': `agent "writer" {\n  model = models.openai.gpt_4o\n  personality = "w"\n}\nagent "editor" {\n  model = models.openai.gpt_4o\n  personality = "e"\n}\n`,
          'z-models.hcl': `model "openai" {\n  provider = "openai"\n  api_key = "sk-test"\n}\nmission "first" {\n  commander {\n    model = models.openai.gpt_4o\n  }\n  agents = [agents.editor]\n  task "only" {\n    objective = "o"\n  }\n}\n`,
        },
      },
    );
    expect(rows(diagnostics)).toEqual([]);
    expect([...config.agents.keys()]).toEqual(['writer', 'editor']);
    expect([...config.missions.keys()]).toEqual(['second', 'first']);
    expect([...(config.missions.get('second')?.tasks.keys() ?? [])]).toEqual(['z', 'a']);
    expect(config.files).toEqual(['a-agents.hcl', 'main.hcl', 'z-models.hcl']);
  });
});
