import { describe, expect, it } from 'vitest';
import { diagnose, PRELUDE } from './helpers.ts';

/** An agent after PRELUDE: `extra` lines start at line 17. */
const agent = (extra: string) =>
  `${PRELUDE}agent "b" {\n  model = models.openai.gpt_4o\n  personality = "p"\n${extra}\n}\n`;

/** A mission after PRELUDE: `inner` starts on line 19. */
const mission = (inner: string) =>
  `${PRELUDE}mission "m" {\n  commander {\n    model = models.openai.gpt_4o\n  }\n${inner}\n}\n`;

describe('attribute value types', () => {
  it('reports each wrong value type at the value', () => {
    expect(
      diagnose(
        agent('  max_turns = 1.5\n  tools = builtins.http.get\n  reasoning = 3') +
          `agent "c" {\n  model = 5\n  personality = 5\n}\nagent "d" {\n  model = models.openai.gpt_4o\n  personality = "\${inputs.x} \${vars.openai_api_key.inner}"\n}\n`,
      ),
    ).toMatchInlineSnapshot(`
      [
        "error 17:15 max_turns must be a whole number",
        "error 18:11 tools must be a list: [ ... ]",
        "error 19:15 reasoning must be one of low, medium, high",
        "error 22:11 model expects a reference like models.CONFIG.KEY",
        "error 23:17 personality must be a string",
        "error 27:20 personality may only interpolate vars.* and load()",
      ]
    `);
  });

  it('checks model block values: api_key kinds, alias keys, alias maps, duplicate pricing', () => {
    expect(
      diagnose(
        `model "a" {\n  provider = "openai"\n  api_key = 5\n  aliases = { "Bad-Key" = "x" }\n  pricing "gpt_4o" {\n    input = 1\n    output = 1\n  }\n  pricing "gpt_4o" {\n    input = 2\n    output = 2\n  }\n}\nmodel "b" {\n  provider = "ollama"\n  base_url = "http://x/v1"\n  aliases = "qwen"\n}\n`,
      ),
    ).toMatchInlineSnapshot(`
      [
        "error 3:13 api_key must be a string or a variable (vars.NAME)",
        "error 4:15 invalid name "Bad-Key": use lowercase letters, digits and _",
        "error 9:11 duplicate pricing "gpt_4o"",
        "error 17:13 aliases must be a map: { key = "value" }",
      ]
    `);
  });
});

describe('references', () => {
  it('reports non-references, wrong namespaces and the string forms', () => {
    expect(
      diagnose(
        mission(
          `  agents = agents.writer\n  task "a" {\n    objective = "x"\n    depends_on = [1, agents.writer, "tasks.b", "b"]\n    agents = ["writer", 7]\n  }\n  task "b" {\n    objective = "x"\n  }`,
        ),
      ),
    ).toMatchInlineSnapshot(`
      [
        "error 18:12 agents must be a list: [ ... ]",
        "error 21:19 depends_on expects a task reference like tasks.NAME",
        "error 21:22 depends_on expects a task reference like tasks.NAME, got agents.writer",
        "error 21:48 duplicate task "b" in depends_on",
        "error 22:25 agents expects an agent reference like agents.NAME",
      ]
    `);
  });

  it('checks route targets in every form', () => {
    expect(
      diagnose(
        mission(
          `  task "a" {\n    objective = "x"\n    router {\n      route {\n        target = "b"\n        condition = "one"\n      }\n      route {\n        target = "nowhere"\n        condition = "two"\n      }\n      route {\n        target = tasks.c\n        condition = "three"\n      }\n      route {\n        target = agents.writer\n        condition = "four"\n      }\n      route {\n        target = missions.elsewhere\n        condition = "five"\n      }\n    }\n  }\n  task "b" {\n    objective = "x"\n  }`,
        ),
      ),
    ).toMatchInlineSnapshot(`
      [
        "error 26:18 unknown route target "nowhere"",
        "error 30:18 unknown task "c" in route target",
        "error 34:18 route target expects tasks.NAME or missions.NAME",
        "error 38:18 unknown mission "elsewhere" in route target",
      ]
    `);
  });
});

describe('blocks in the wrong shape', () => {
  it('reports labels on unlabelled blocks, duplicate single blocks and mixed commander forms', () => {
    expect(
      diagnose(
        mission(
          `  commander = models.openai.gpt_4o\n  task "a" {\n    objective = "x"\n    iterator "i" {\n      dataset = datasets.d\n    }\n    router {\n      route {\n        target = tasks.b\n        condition = "c"\n      }\n    }\n    router {\n      route {\n        target = tasks.b\n        condition = "d"\n      }\n    }\n    budget {\n      tokens = 1\n    }\n    budget {\n      tokens = 2\n    }\n  }\n  task "b" {\n    objective = "x"\n  }\n  dataset "d" {\n    items = [1]\n  }`,
        ),
      ),
    ).toMatchInlineSnapshot(`
      [
        "error 18:3 commander is given both as an attribute and as a block; use the block",
        "error 21:14 \`iterator\` block takes no label",
        "error 30:5 duplicate \`router\` block: only one is allowed here",
        "error 39:5 duplicate \`budget\` block: only one is allowed here",
      ]
    `);
  });
});

describe('expressions in objectives, tools and datasets', () => {
  it('refuses function calls and non-constant items', () => {
    expect(
      diagnose(
        mission(
          `  task "a" {\n    objective = "\${upper("x")}"\n  }\n  task "b" {\n    objective = 5\n  }\n  dataset "d" {\n    items = [{ name = vars.openai_api_key }]\n  }\n  dataset "e" {\n    bind_to = nothing\n  }`,
        ) +
          `tool "t" {\n  implements = builtins.http.post\n  description = "T"\n  url = "https://x/\${upper(inputs)}"\n  headers = "h"\n  query = { q = inputs }\n}\n`,
      ),
    ).toMatchInlineSnapshot(`
      [
        "error 19:20 function upper() cannot be used in an objective",
        "error 22:17 objective must be a string",
        "error 25:23 item 0: must be a constant value",
        "error 28:15 bind_to expects a mission input reference like inputs.NAME",
        "error 34:22 function upper() cannot be used in url",
        "error 34:28 an input reference reads inputs.NAME",
        "error 35:13 headers must be a map: { name = "value" }",
        "error 36:17 an input reference reads inputs.NAME",
      ]
    `);
  });
});
