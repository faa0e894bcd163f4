import { describe, expect, it } from 'vitest';
import { decodeText, diagnose, PRELUDE } from './helpers.ts';

/** A mission around the given task-level HCL, after PRELUDE (the mission starts on line 15). */
function mission(inner: string): string {
  return `${PRELUDE}
mission "m" {
  commander {
    model = models.openai.gpt_4o
  }
  agents = [agents.writer]
${inner}
}
`;
}

describe('strict bodies and labels', () => {
  it('reports an unknown attribute with a close name as "did you mean"', () => {
    expect(diagnose(`variable "x" {\n  descripton = "a"\n}\n`)).toMatchInlineSnapshot(`
      [
        "error 2:3 unknown attribute "descripton" (did you mean "description"?)",
      ]
    `);
  });

  it('reports an unknown attribute with no close name without a suggestion', () => {
    expect(diagnose(`variable "x" {\n  colour = "a"\n}\n`)).toMatchInlineSnapshot(`
      [
        "error 2:3 unknown attribute "colour"",
      ]
    `);
  });

  it('reports an unknown block with a suggestion', () => {
    expect(
      diagnose(
        mission(
          `  task "t" {\n    objective = "x"\n    itrator {\n      dataset = datasets.d\n    }\n  }`,
        ),
      ),
    ).toMatchInlineSnapshot(`
      [
        "error 22:5 unknown block "itrator" (did you mean "iterator"?)",
      ]
    `);
  });

  it('rejects an invalid name with the exact message', () => {
    expect(diagnose(mission(`  task "My-Task" {\n    objective = "x"\n  }`)))
      .toMatchInlineSnapshot(`
      [
        "error 20:8 invalid name "My-Task": use lowercase letters, digits and _",
      ]
    `);
  });

  it('rejects a block without its label', () => {
    expect(diagnose(`variable {\n  secret = true\n}\n`)).toMatchInlineSnapshot(`
      [
        "error 1:1 \`variable\` block needs exactly one label: variable "NAME" { ... }",
      ]
    `);
  });

  it('reports duplicates of the same kind at the second declaration', () => {
    expect(
      diagnose(
        `${PRELUDE}\nagent "writer" {\n  model       = models.openai.gpt_4o\n  personality = "Again"\n}\n`,
      ),
    ).toMatchInlineSnapshot(`
      [
        "error 15:7 duplicate agent "writer"",
      ]
    `);
    expect(
      diagnose(
        mission(`  task "t" {\n    objective = "a"\n  }\n  task "t" {\n    objective = "b"\n  }`),
      ),
    ).toMatchInlineSnapshot(`
      [
        "error 23:8 duplicate task "t"",
      ]
    `);
  });

  it('reports a missing required attribute at the block header', () => {
    expect(diagnose(mission(`  task "t" {\n  }`))).toMatchInlineSnapshot(`
      [
        "error 20:3 missing required attribute "objective"",
      ]
    `);
  });

  it('refuses plugin blocks and plugins.* references, saying why', () => {
    const { diagnostics } = decodeText(
      `${PRELUDE}plugin "bash" {\n}\nagent "b" {\n  model = models.openai.gpt_4o\n  personality = "p"\n  tools = [plugins.bash.run]\n}\n`,
    );
    const why =
      'plugins are Go programs served over go-plugin/gRPC, which sortie does not run; an `mcp` server block gives agents tools instead';
    expect(diagnostics.map((d) => [d.severity, d.line, d.column, d.message, d.hint])).toEqual([
      ['error', 14, 1, '`plugin` blocks are not supported by sortie', why],
      [
        'error',
        19,
        12,
        '`plugins.*` references are not supported by sortie (`plugin` blocks are not supported)',
        why,
      ],
    ]);
  });

  it('accepts operational blocks of the reference runtime with a warning, and decodes mcp_host', () => {
    expect(
      diagnose(`command_center {\n}\nmcp_host {\n}\nvault "v" {\n}\nstorage {\n}\ngateway {\n}\n`),
    ).toMatchInlineSnapshot(`
      [
        "warning 1:1 \`command_center\` blocks are ignored by sortie",
        "warning 5:1 \`vault\` blocks are ignored by sortie",
        "warning 7:1 \`storage\` blocks are ignored by sortie",
        "warning 9:1 \`gateway\` blocks are ignored by sortie",
      ]
    `);
    expect(
      diagnose(
        mission(
          `  schedule {\n    every = "15m"\n  }\n  trigger {\n  }\n  agent "local" {\n    model = models.openai.gpt_4o\n    personality = "p"\n    role = "helper"\n  }\n  task "t" {\n    objective = "x"\n  }`,
        ),
      ),
    ).toMatchInlineSnapshot(`
      [
        "warning 28:5 \`role\` is ignored by sortie",
      ]
    `);
  });

  it('warns about top-level attributes and ignores them, as the reference runtime does', () => {
    expect(diagnose(`name = "x"\n`)).toMatchInlineSnapshot(`
      [
        "warning 1:1 unknown attribute "name" is ignored by sortie",
      ]
    `);
  });
});

describe('variables', () => {
  it('refuses a default on a secret variable and a default of the wrong type', () => {
    expect(
      diagnose(
        `variable "key" {\n  secret  = true\n  default = "abc"\n}\nvariable "n" {\n  default = [1]\n}\n`,
      ),
    ).toMatchInlineSnapshot(`
      [
        "error 3:3 secret variable "key" cannot have a default",
        "error 6:13 default must be a string, number or bool",
      ]
    `);
  });

  it('reports an unknown variable with a suggestion', () => {
    expect(
      diagnose(
        `variable "openai_api_key" {\n  secret = true\n}\nmodel "openai" {\n  provider = "openai"\n  api_key  = vars.openai_api_kye\n}\n`,
      ),
    ).toMatchInlineSnapshot(`
      [
        "warning 6:14 vars.openai_api_kye has no variable "openai_api_kye" block: it is read like a secret variable (did you mean "openai_api_key"?)",
      ]
    `);
  });

  it('substitutes variables in static strings and reports unset ones where used', () => {
    expect(
      diagnose(
        `${PRELUDE}variable "tone" {\n}\nagent "b" {\n  model = models.openai.gpt_4o\n  personality = "Be \${vars.tone}"\n}\n`,
      ),
    ).toMatchInlineSnapshot(`
      [
        "error 18:23 variable "tone" has no value",
      ]
    `);
  });
});

describe('duplicates across files', () => {
  it('points at the first declaration in the hint', () => {
    const { diagnostics } = decodeText(`memory "notes" {\n  description = "a"\n}\n`, {
      files: { 'z/more.hcl': `memory "notes" {\n  description = "b"\n}\n` },
    });
    expect(diagnostics.map((d) => [d.file, d.line, d.column, d.message, d.hint])).toEqual([
      ['z/more.hcl', 1, 8, 'duplicate memory "notes"', 'first declared at main.hcl:1'],
    ]);
  });
});
