import { describe, expect, it } from 'vitest';
import { decodeText, diagnose, PRELUDE } from './helpers.ts';

/** An agent "a" (line 14, its blocks from line 17) and a mission with the commander last. */
function project(agentBlocks: string, commanderBlocks: string): string {
  return `${PRELUDE}agent "a" {
  model       = models.openai.gpt_4o
  personality = "p"
${agentBlocks}
}
mission "m" {
  agents = [agents.a]
  task "t" {
    objective = "x"
  }
  commander {
    model = models.openai.gpt_4o
${commanderBlocks}
  }
}
`;
}

describe('context limits of agents and commanders', () => {
  it('decodes pruning, compaction and tool_response on agents and commanders', () => {
    const blocks = `  pruning {\n    prune_on = 20\n    prune_to = 10\n  }\n  compaction {\n    token_limit    = 5000\n    turn_retention = 3\n  }\n  tool_response {\n    max_tokens = 8000\n  }`;
    const { config, diagnostics } = decodeText(project(blocks, blocks));
    expect(diagnostics).toEqual([]);
    const expected = {
      toolResponseMaxTokens: 8000,
      pruning: { pruneOn: 20, pruneTo: 10 },
      compaction: { tokenLimit: 5000, turnRetention: 3 },
    };
    expect(config.agents.get('a')).toMatchObject(expected);
    expect(config.missions.get('m')?.commander).toEqual({
      model: { config: 'openai', key: 'gpt_4o' },
      ...expected,
    });
    expect(config.agents.get('writer')).not.toHaveProperty('pruning');
    expect(config.agents.get('writer')).not.toHaveProperty('compaction');
  });

  it('clamps max_tokens above the hard maximum to it, with a warning', () => {
    const { config, diagnostics } = decodeText(
      project(
        '  tool_response {\n    max_tokens = 100000\n  }',
        '    tool_response {\n      max_tokens = 999999\n    }',
      ),
    );
    expect(diagnostics.map((d) => `${d.severity} ${d.line}:${d.column} ${d.message}`)).toEqual([
      'warning 18:18 max_tokens 100000 is above the maximum 64000: 64000 is used',
      'warning 29:20 max_tokens 999999 is above the maximum 64000: 64000 is used',
    ]);
    expect(config.agents.get('a')?.toolResponseMaxTokens).toBe(64000);
    expect(config.missions.get('m')?.commander.toolResponseMaxTokens).toBe(64000);
  });

  it.each([
    [
      'missing attributes',
      '  pruning {\n  }\n  compaction {\n    token_limit = 100\n  }',
      [
        'error 17:3 missing required attribute "prune_on"',
        'error 17:3 missing required attribute "prune_to"',
        'error 19:3 missing required attribute "turn_retention"',
      ],
    ],
    [
      'prune_to not below prune_on',
      '  pruning {\n    prune_on = 10\n    prune_to = 10\n  }',
      [
        'error 19:16 prune_to must be less than prune_on (10): pruning keeps prune_to turns of the prune_on reached',
      ],
    ],
    [
      'values out of range or not whole',
      '  pruning {\n    prune_on = 1\n    prune_to = 0\n  }\n  compaction {\n    token_limit    = 0\n    turn_retention = 1.5\n  }\n  tool_response {\n    max_tokens = 0\n  }',
      [
        'error 18:16 prune_on must be 2 or more',
        'error 19:16 prune_to must be 1 or more',
        'error 22:22 token_limit must be 1 or more',
        'error 23:22 turn_retention must be a whole number',
        'error 26:18 max_tokens must be 1 or more',
      ],
    ],
    [
      'two blocks of a kind, labels and unknown attributes',
      '  pruning "x" {\n    prune_on = 4\n    prune_to = 2\n    prune_at = 3\n  }\n  pruning {\n    prune_on = 4\n    prune_to = 2\n  }',
      [
        'error 17:11 `pruning` block takes no label',
        'error 20:5 unknown attribute "prune_at" (did you mean "prune_on"?)',
        'error 22:3 duplicate `pruning` block: only one is allowed here',
      ],
    ],
  ])('reports %s on an agent', (_name, blocks, expected) => {
    expect(diagnose(project(blocks, ''))).toEqual(expected);
  });

  it('reports the same rules on a commander', () => {
    expect(
      diagnose(project('', '    pruning {\n      prune_on = 3\n      prune_to = 5\n    }')),
    ).toEqual([
      'error 28:18 prune_to must be less than prune_on (3): pruning keeps prune_to turns of the prune_on reached',
    ]);
  });
});
