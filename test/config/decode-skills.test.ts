import { describe, expect, it } from 'vitest';
import { decodeText, diagnose, PRELUDE } from './helpers.ts';

const SKILLS = `mcp "fs" {
  command = "srv"
}

skill "web_scraping" {
  description  = "Load when you need to scrape web pages"
  instructions = load("skills/web_scraping.md")
  tools        = [builtins.http.get, mcp.fs.read_file]
}

skill "data_analysis" {
  description  = "Load when you need to analyze datasets"
  instructions = "Use the dataset tools."
}
`;

describe('skills', () => {
  it('decodes global skills with loaded instructions and their tools', () => {
    const { config, diagnostics } = decodeText(SKILLS, {
      loaded: { 'skills/web_scraping.md': 'Scrape carefully.\n' },
    });
    expect(diagnostics).toEqual([]);
    const skill = config.skills.get('web_scraping');
    expect([
      skill?.agent,
      skill?.description,
      skill?.instructions,
      skill?.tools.map((tool) => (tool.kind === 'mcp' ? `mcp:${tool.tool}` : tool.name)),
    ]).toEqual([
      undefined,
      'Load when you need to scrape web pages',
      'Scrape carefully.\n',
      ['builtins.http.get', 'mcp:read_file'],
    ]);
    expect([...config.skills.keys()]).toEqual(['web_scraping', 'data_analysis']);
  });

  it('gives an agent the skills it lists, in order, then its own scoped skills', () => {
    const { config, diagnostics } = decodeText(
      `${PRELUDE}${SKILLS}agent "researcher" {
  model       = models.openai.gpt_4o
  personality = "Thorough"
  skills      = [skills.data_analysis, "helper", "skills.web_scraping"]

  skill "helper" {
    description  = "Helps"
    instructions = "Help."
  }

  skill "summarizer" {
    description  = "Summarizes"
    instructions = "Summarize in three bullets."
    tools        = [builtins.utils.current_time]
  }
}
mission "m" {
  commander {
    model = models.openai.gpt_4o
  }
  agent "worker" {
    model       = models.openai.gpt_4o
    personality = "Efficient"
    skills      = [skills.web_scraping]
    skill "mission_helper" {
      description  = "Mission help"
      instructions = "Analyse."
    }
  }
  agents = [agents.worker]
  task "t" {
    objective = "x"
  }
}
`,
      { loaded: { 'skills/web_scraping.md': 'Scrape.' } },
    );
    expect(diagnostics).toEqual([]);
    const researcher = config.agents.get('researcher');
    expect(researcher?.skills.map((skill) => `${skill.agent ?? 'global'}:${skill.name}`)).toEqual([
      'global:data_analysis',
      'researcher:helper',
      'global:web_scraping',
      'researcher:summarizer',
    ]);
    expect(researcher?.skills[3]?.tools).toEqual([
      { kind: 'builtin', name: 'builtins.utils.current_time' },
    ]);
    const worker = config.missions.get('m')?.scopedAgents.get('worker');
    expect(worker?.skills.map((skill) => `${skill.agent ?? 'global'}:${skill.name}`)).toEqual([
      'global:web_scraping',
      'worker:mission_helper',
    ]);
    expect(config.agents.get('writer')?.skills).toEqual([]);
  });

  it.each([
    [
      'an unknown skill in an agent, with a suggestion',
      `agent "a" {\n  model = models.openai.gpt_4o\n  personality = "p"\n  skills = [skills.data_analysys, skills.nothing_like_it]\n}`,
      [
        'error 32:13 unknown skill "data_analysys" in skills (did you mean "data_analysis"?)',
        'error 32:35 unknown skill "nothing_like_it" in skills',
      ],
    ],
    [
      'an unknown tool in a skill',
      `skill "s" {\n  description  = "d"\n  instructions = "i"\n  tools        = [tools.nope, mcp.fss.x, builtins.http.gett]\n}`,
      [
        'error 32:19 unknown tool "nope" in tools',
        'error 32:31 unknown MCP server "fss" in tools (did you mean "fs"?)',
        'error 32:42 unknown built-in tool "builtins.http.gett" (did you mean "builtins.http.get"?)',
      ],
    ],
    [
      'an agent-scoped skill named like a global one, and a scoped name twice',
      `agent "a" {\n  model = models.openai.gpt_4o\n  personality = "p"\n  skill "data_analysis" {\n    description  = "d"\n    instructions = "i"\n  }\n  skill "x" {\n    description  = "d"\n    instructions = "i"\n  }\n  skill "x" {\n    description  = "d"\n    instructions = "i"\n  }\n}`,
      [
        'error 32:9 skill "data_analysis" of agent "a" has the same name as a global skill',
        'error 40:9 duplicate skill "x" in agent "a"',
      ],
    ],
    [
      'a skill without description and instructions, an unknown attribute, a duplicate global skill',
      `skill "s" {\n  descripton = "d"\n}\nskill "data_analysis" {\n  description  = "d"\n  instructions = "i"\n}`,
      [
        'error 29:1 missing required attribute "description"',
        'error 29:1 missing required attribute "instructions"',
        'error 30:3 unknown attribute "descripton" (did you mean "description"?)',
        'error 32:7 duplicate skill "data_analysis"',
      ],
    ],
  ])('reports %s', (_name, text, expected) => {
    expect(
      diagnose(`${PRELUDE}${SKILLS}\n${text}\n`, { loaded: { 'skills/web_scraping.md': 'S' } }),
    ).toEqual(expected);
  });

  it('allows the same scoped skill name in two agents', () => {
    const scoped = (agent: string) =>
      `agent "${agent}" {\n  model = models.openai.gpt_4o\n  personality = "p"\n  skill "helper" {\n    description  = "d"\n    instructions = "i"\n  }\n}\n`;
    expect(diagnose(`${PRELUDE}${scoped('a')}${scoped('b')}`)).toEqual([]);
  });
});
