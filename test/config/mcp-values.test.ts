import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/base/errors.ts';
import {
  mcpServersOfMission,
  mcpUrlProtocol,
  resolveMcpServer,
} from '../../src/config/mcp-values.ts';
import { requireVariables, secretValues } from '../../src/config/requirements.ts';
import { decodeText, PRELUDE, rows } from './helpers.ts';

const PROJECT = `${PRELUDE}variable "token" {
  secret = true
}
variable "base" {
}
mcp "remote" {
  url     = "\${vars.base}/sse/"
  headers = { Authorization = "Bearer \${vars.token}", X-Team = "blue" }
}
mcp "local" {
  command = "srv"
  args    = ["--team", "blue"]
  env     = { API_KEY = "literal-key-1234", MODE = "fast" }
}
mcp "unused" {
  command = "other"
}
skill "browse" {
  description  = "d"
  instructions = "i"
  tools        = [mcp.remote.all]
}
agent "a" {
  model       = models.openai.gpt_4o
  personality = "p"
  tools       = [mcp.local.read]
  skills      = [skills.browse]
}
mission "m" {
  commander {
    model = models.openai.gpt_4o
  }
  agents = [agents.a]
  task "t" {
    objective = "x"
  }
}
`;

const load = (env: Record<string, string> = {}) => {
  const { config, diagnostics } = decodeText(PROJECT, { env });
  expect(diagnostics).toEqual([]);
  return config;
};

describe('MCP servers at run time', () => {
  it('lists the servers a mission uses, through agents and their skills, in first-use order', () => {
    const config = load();
    const mission = config.missions.get('m');
    expect(mission && mcpServersOfMission(config, mission)).toEqual(['local', 'remote']);
  });

  it('requires the variables of the servers a mission uses, each at its first use', () => {
    const config = load();
    let error: unknown;
    try {
      requireVariables(config, 'm', { credentials: false });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const diagnostics = (error as ConfigError).diagnostics;
    expect(rows(diagnostics)).toEqual([
      'error 20:16 variable "base" has no value',
      'error 21:41 variable "token" has no value',
    ]);
    expect(diagnostics.map((d) => d.path)).toEqual([['mcp "remote"'], ['mcp "remote"']]);
  });

  it('resolves a server with its variables, and picks SSE for a path ending in /sse', () => {
    const config = load({ SORTIE_VAR_base: 'https://mcp.example.com', TOKEN: 'tok-5678' });
    expect(() => requireVariables(config, 'm', { credentials: false })).not.toThrow();
    expect(resolveMcpServer(config, 'remote')).toEqual({
      kind: 'url',
      url: 'https://mcp.example.com/sse/',
      protocol: 'sse',
      headers: { Authorization: 'Bearer tok-5678', 'X-Team': 'blue' },
    });
    expect(resolveMcpServer(config, 'local')).toEqual({
      kind: 'command',
      command: 'srv',
      args: ['--team', 'blue'],
      env: { API_KEY: 'literal-key-1234', MODE: 'fast' },
    });
  });

  it('throws a ConfigError for a server whose variables are unset', () => {
    expect(() => resolveMcpServer(load(), 'remote')).toThrow(ConfigError);
  });

  it('redacts credential-like settings and secret variables, not plain settings', () => {
    const secrets = secretValues(
      load({ SORTIE_VAR_base: 'https://mcp.example.com', TOKEN: 'tok-5678' }),
    );
    expect(secrets).toEqual(['tok-5678', 'Bearer tok-5678', 'literal-key-1234']);
  });

  it.each([
    ['https://x.dev/mcp', 'streamable_http'],
    ['https://x.dev/sse', 'sse'],
    ['https://x.dev/v1/sse/', 'sse'],
    ['https://x.dev/sse?x=1', 'sse'],
    ['https://x.dev/ssevents', 'streamable_http'],
  ])('speaks to %s over %s', (url, protocol) => {
    expect(mcpUrlProtocol(url)).toBe(protocol);
  });
});
