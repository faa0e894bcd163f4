/**
 * The exact message and position of diagnostics no other table covers: duplicate blocks where
 * one is allowed, a malformed variable reference, and pricing on a local model.
 */
import { describe, expect, it } from 'vitest';
import { diagnose, PRELUDE } from './helpers.ts';

/** PRELUDE and a mission "m" with `inner` in its body (its first line is line 18). */
function mission(inner: string): string {
  return `${PRELUDE}mission "m" {\n  commander {\n    model = models.openai.gpt_4o\n  }\n${inner}\n  agents = [agents.writer]\n  task "t" {\n    objective = "x"\n  }\n}\n`;
}

/** A task "u" (line 21) after a dataset "d", with `inner` in its body from line 23. */
function task(inner: string): string {
  return mission(
    `  dataset "d" {\n    items = [1]\n  }\n  task "u" {\n    objective = "y"\n${inner}\n  }`,
  );
}

describe('diagnostics with exact messages and positions', () => {
  it.each<[string, string, string[]]>([
    [
      'a second dataset of the same name',
      mission('  dataset "d" {\n    items = [1]\n  }\n  dataset "d" {\n    items = [2]\n  }'),
      ['error 21:11 duplicate dataset "d"'],
    ],
    [
      'a second iterator in a task',
      task(
        '    iterator {\n      dataset = datasets.d\n    }\n    iterator {\n      dataset = datasets.d\n    }',
      ),
      ['error 26:5 duplicate `iterator` block: only one is allowed here'],
    ],
    [
      'a second router in a task',
      task(
        '    router {\n      route {\n        target    = tasks.t\n        condition = "a"\n      }\n    }\n    router {\n      route {\n        target    = tasks.t\n        condition = "b"\n      }\n    }',
      ),
      ['error 29:5 duplicate `router` block: only one is allowed here'],
    ],
    [
      'a second budget in a task',
      task('    budget {\n      tokens = 10\n    }\n    budget {\n      tokens = 20\n    }'),
      ['error 26:5 duplicate `budget` block: only one is allowed here'],
    ],
    [
      'a variable reference with two steps',
      `${PRELUDE}model "second" {\n  provider = "openai"\n  api_key  = vars.openai_api_key.value\n}\n`,
      ['error 16:14 a variable reference reads vars.NAME'],
    ],
    [
      'a variable reference with two steps in an objective',
      mission('').replace('objective = "x"', 'objective = "x ${vars}"'),
      ['error 21:22 a variable reference reads vars.NAME'],
    ],
    [
      'pricing on a local model',
      `${PRELUDE}model "local" {\n  provider = "ollama"\n  base_url = "http://localhost:11434/v1"\n  aliases  = { qwen = "qwen3:8b" }\n  pricing "qwen" {\n    input  = 1\n    output = 2\n  }\n}\n`,
      [
        `warning 18:11 pricing "qwen" is ignored: a local model's dollar cost is always $0 (its tokens are still counted)`,
      ],
    ],
  ])('reports %s', (_name, text, expected) => {
    expect(diagnose(text)).toEqual(expected);
  });
});
