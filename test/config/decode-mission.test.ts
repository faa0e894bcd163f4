import { describe, expect, it } from 'vitest';
import { decodeText, diagnose, PRELUDE } from './helpers.ts';

/** A mission (line 15) whose `inner` starts on line 20. */
function mission(inner: string, extra = ''): string {
  return `${PRELUDE}
mission "m" {
  commander {
    model = models.openai.gpt_4o
  }
  agents = [agents.writer]
${inner}
}
${extra}`;
}

const INPUTS = `  inputs = {
    topic    = string("Topic", true)
    token    = string("Token", { protected = true })
    contract = file("Contract")
    cities   = list(object({ name = string("Name", true) }), "Cities")
    label    = string("Label")
  }
`; // lines 20-26

describe('objectives', () => {
  it('checks inputs, variables and item in objectives', () => {
    expect(
      diagnose(
        mission(
          `${INPUTS}  task "t" {\n    objective = "\${inputs.topic} \${inputs.token} \${inputs.contract} \${inputs.topc} \${vars.openai_api_key} \${vars.region} \${item.name} \${foo.bar}"\n  }\n`,
        ),
      ),
    ).toMatchInlineSnapshot(`
      [
        "error 28:36 protected input "token" cannot be interpolated into an objective",
        "error 28:52 file input "contract" cannot be interpolated into an objective",
        "error 28:71 unknown input "topc" in objective (did you mean "topic"?)",
        "error 28:86 secret variable "openai_api_key" cannot be used in an objective",
        "error 28:109 vars.region in an objective needs a variable "region" block: sortie reads a variable without one as a secret, and an objective is shown to models and people",
        "error 28:124 item can only be used in the objective of a parallel iterated task",
        "error 28:137 unknown reference "foo" in objective: use inputs.NAME, vars.NAME or item",
      ]
    `);
  });

  it('allows item in parallel iterations only, checking item fields against the dataset schema', () => {
    expect(
      diagnose(
        mission(
          `${INPUTS}  dataset "cities" {\n    bind_to = inputs.cities\n  }\n  task "p" {\n    objective = "Visit \${item.name} \${item.nme}"\n    iterator {\n      dataset  = datasets.cities\n      parallel = true\n    }\n  }\n  task "s" {\n    objective = "Visit \${item.name}"\n    iterator {\n      dataset = datasets.cities\n    }\n  }\n`,
        ),
      ),
    ).toMatchInlineSnapshot(`
      [
        "error 31:39 unknown field "nme" of dataset "cities" items (did you mean "name"?)",
        "error 38:26 item can only be used in the objective of a parallel iterated task",
      ]
    `);
  });

  it('reports a misspelt iterated dataset once, not also item outside a parallel task', () => {
    expect(
      diagnose(
        mission(
          `${INPUTS}  dataset "cities" {\n    bind_to = inputs.cities\n  }\n  task "p" {\n    objective = "Visit \${item.name}"\n    iterator {\n      dataset  = datasets.citie\n      parallel = true\n    }\n  }\n`,
        ),
      ),
    ).toMatchInlineSnapshot(`
      [
        "error 33:18 unknown dataset "citie" in iterator (did you mean "cities"?)",
      ]
    `);
  });

  it('keeps the objective as a template with load() text inlined', () => {
    const { config, diagnostics } = decodeText(
      mission(
        `${INPUTS}  task "t" {\n    objective = "\${load("prompts/intro.md")} about \${inputs.topic}"\n  }\n`,
      ),
      { loaded: { 'prompts/intro.md': 'Write' } },
    );
    expect(diagnostics).toEqual([]);
    const parts = config.missions.get('m')?.tasks.get('t')?.objective.parts ?? [];
    expect(parts.map((part) => (part.kind === 'text' ? part.value : part.kind))).toEqual([
      'Write',
      ' about ',
      'traversal',
    ]);
  });

  it('reports load errors at the call', () => {
    expect(diagnose(mission(`  task "t" {\n    objective = load("missing.md")\n  }\n`)))
      .toMatchInlineSnapshot(`
      [
        "error 21:17 load("missing.md"): file not found: missing.md",
      ]
    `);
  });
});

describe('mission inputs and datasets', () => {
  it('refuses inputs written in two forms', () => {
    expect(
      diagnose(
        mission(
          `  inputs = {\n    a = string("A")\n  }\n  input "b" {\n    type = "string"\n  }\n  task "t" {\n    objective = "x"\n  }\n`,
        ),
      ),
    ).toMatchInlineSnapshot(`
      [
        "error 23:3 inputs is written in more than one form here; use either the attribute or the blocks",
      ]
    `);
  });

  it('validates inline items, naming the item index and field path', () => {
    expect(
      diagnose(
        mission(
          `  dataset "cities" {\n    schema = {\n      name = string("Name", true)\n      population = integer("People")\n    }\n    items = [\n      { name = "Oslo", population = 700000 },\n      { population = "many" },\n    ]\n  }\n  task "t" {\n    objective = "x"\n  }\n`,
        ),
      ),
    ).toMatchInlineSnapshot(`
      [
        "error 27:7 item 1: /: must have required property 'name'",
        "error 27:7 item 1: /population: must be integer",
      ]
    `);
  });

  it('binds a dataset to a list input only', () => {
    expect(
      diagnose(
        mission(
          `${INPUTS}  dataset "a" {\n    bind_to = inputs.topic\n  }\n  dataset "b" {\n    bind_to = inputs.citys\n  }\n  dataset "c" {\n    items = []\n    bind_to = inputs.cities\n  }\n  task "t" {\n    objective = "x"\n  }\n`,
        ),
      ),
    ).toMatchInlineSnapshot(`
      [
        "error 28:15 bind_to needs a list input; input "topic" is string",
        "error 31:15 unknown input "citys" in bind_to (did you mean "cities"?)",
        "error 35:5 a dataset takes items or bind_to, not both",
      ]
    `);
  });

  it('keeps datasets, their schemas and items in declaration order', () => {
    const { config, diagnostics } = decodeText(
      mission(
        `${INPUTS}  dataset "bound" {\n    bind_to = inputs.cities\n  }\n  dataset "inline" {\n    description = "Numbers"\n    schema {\n      field "value" {\n        type = "number"\n        required = true\n      }\n    }\n    items = [{ value = 1 }, { value = 2 }]\n  }\n  task "t" {\n    objective = "x"\n  }\n`,
      ),
    );
    expect(diagnostics).toEqual([]);
    const datasets = config.missions.get('m')?.datasets;
    expect([...(datasets?.keys() ?? [])]).toEqual(['bound', 'inline']);
    expect(datasets?.get('bound')?.bindTo).toBe('cities');
    expect(
      datasets?.get('bound')?.schema?.fields.map((field) => [field.name, field.required]),
    ).toEqual([['name', true]]);
    expect(datasets?.get('inline')?.items).toEqual([{ value: 1 }, { value: 2 }]);
    expect(config.missions.get('m')?.inputs?.fields.map((field) => field.name)).toEqual([
      'topic',
      'token',
      'contract',
      'cities',
      'label',
    ]);
  });
});

describe('mission blocks', () => {
  it('requires exactly one commander and accepts the older attribute form', () => {
    expect(diagnose(`${PRELUDE}mission "m" {\n  task "t" {\n    objective = "x"\n  }\n}\n`))
      .toMatchInlineSnapshot(`
      [
        "error 14:1 missing required block "commander": commander { model = models.CONFIG.KEY }",
      ]
    `);
    expect(
      diagnose(
        mission(
          `  commander {\n    model = models.openai.gpt_4o\n  }\n  task "t" {\n    objective = "x"\n  }\n`,
        ),
      ),
    ).toMatchInlineSnapshot(`
      [
        "error 20:3 duplicate \`commander\` block: only one is allowed here",
      ]
    `);
    const { config, diagnostics } = decodeText(
      `${PRELUDE}mission "m" {\n  commander = models.openai.gpt_4o_mini\n  task "t" {\n    objective = "x"\n  }\n}\n`,
    );
    expect(diagnostics).toEqual([]);
    expect(config.missions.get('m')?.commander).toEqual({
      model: { config: 'openai', key: 'gpt_4o_mini' },
      toolResponseMaxTokens: 16000,
    });
  });

  it('checks memories, the mission memory and scratchpad', () => {
    expect(
      diagnose(
        `${PRELUDE}memory "scratchpad" {\n  description = "x"\n}\nmemory "notes" {\n  description = "Team notes"\n}\nmission "m" {\n  commander {\n    model = models.openai.gpt_4o\n  }\n  memories = [memories.note, memories.notes]\n  memory {\n    description = "Mine"\n  }\n  memory {\n    description = "Again"\n  }\n  scratchpad = "yes"\n  task "t" {\n    objective = "x"\n  }\n}\n`,
      ),
    ).toMatchInlineSnapshot(`
      [
        "error 14:8 memory name "scratchpad" is reserved (memory, scratchpad, input are slot names)",
        "error 24:15 unknown memory "note" in memories (did you mean "notes"?)",
        "error 28:3 duplicate \`memory\` block: only one is allowed here",
        "error 31:16 scratchpad must be true or false",
      ]
    `);
    const { config } = decodeText(
      `${PRELUDE}memory "notes" {\n  description = "Team notes"\n}\nmission "m" {\n  commander {\n    model = models.openai.gpt_4o\n  }\n  memories = [memories.notes]\n  memory {\n    description = "Mine"\n  }\n  scratchpad = true\n  task "t" {\n    objective = "x"\n  }\n}\n`,
    );
    const decoded = config.missions.get('m');
    expect([decoded?.memories, decoded?.memory, decoded?.scratchpad]).toEqual([
      ['notes'],
      { description: 'Mine' },
      true,
    ]);
  });

  it('refuses a mission-scoped agent named like a global one and unknown agents in lists', () => {
    expect(
      diagnose(
        mission(
          `  agent "writer" {\n    model = models.openai.gpt_4o\n    personality = "p"\n  }\n  agent "local" {\n    model = models.openai.gpt_4o\n    personality = "p"\n  }\n  task "t" {\n    objective = "x"\n    agents = [agents.local, agents.wrter]\n  }\n`,
        ),
      ),
    ).toMatchInlineSnapshot(`
      [
        "error 20:9 agent "writer" is already declared at the top level; a mission-scoped agent needs its own name",
        "error 30:29 unknown agent "wrter" in agents (did you mean "writer"?)",
      ]
    `);
  });
});
