import { describe, expect, it } from 'vitest';
import { decodeText, diagnose, PRELUDE } from './helpers.ts';

describe('mcp blocks', () => {
  it('decodes each way of reaching a server into its typed transport', () => {
    const { config, diagnostics } = decodeText(
      [
        'variable "api_key" {\n  secret = true\n}',
        'variable "region" {\n  default = "eu"\n}',
        'mcp "local" {\n  command = "./bin/server"\n  args    = ["--debug", 3, "--region=${vars.region}"]\n  env     = { LOG_LEVEL = "info", GITHUB_TOKEN = "ghp_x", VERBOSE = true }\n}',
        'mcp "filesystem" {\n  source  = "npm:@modelcontextprotocol/server-filesystem"\n  version = "2026.1.14"\n  args    = ["/tmp"]\n}',
        'mcp "custom" {\n  source  = "github.com/owner/mcp-custom"\n  version = "v1.0.0"\n  entry   = "bin/server"\n}',
        'mcp "remote" {\n  url     = "https://example.com/mcp"\n  headers = { Authorization = "Bearer ${vars.api_key}", Accept = "application/json", X-Region = vars.region }\n}',
        'mcp "slack" {\n  url           = "https://tools.slack.dev/agent-tools-mcp/sse"\n  client_id     = "abc"\n  client_secret = vars.api_key\n}',
      ].join('\n'),
    );
    expect(diagnostics).toEqual([]);
    const servers = Object.fromEntries(
      [...config.mcpServers].map(([name, server]) => [name, server.transport]),
    );
    const text = (value: string) => ({ segments: [{ text: value }] });
    expect(servers.local).toEqual({
      kind: 'command',
      command: './bin/server',
      args: [
        text('--debug'),
        text('3'),
        { segments: [{ text: '--region=' }, { variable: 'region', span: expect.anything() }] },
      ],
      env: [
        { name: 'LOG_LEVEL', value: text('info'), secret: false },
        { name: 'GITHUB_TOKEN', value: text('ghp_x'), secret: true },
        { name: 'VERBOSE', value: text('true'), secret: false },
      ],
    });
    expect(servers.filesystem).toEqual({
      kind: 'npm',
      package: '@modelcontextprotocol/server-filesystem',
      version: '2026.1.14',
      args: [text('/tmp')],
      env: [],
    });
    expect(servers.custom).toEqual({
      kind: 'github',
      owner: 'owner',
      repo: 'mcp-custom',
      version: 'v1.0.0',
      entry: 'bin/server',
      args: [],
      env: [],
    });
    expect(servers.remote).toEqual({
      kind: 'url',
      url: text('https://example.com/mcp'),
      headers: [
        {
          name: 'Authorization',
          value: {
            segments: [{ text: 'Bearer ' }, { variable: 'api_key', span: expect.anything() }],
          },
          secret: true,
        },
        { name: 'Accept', value: text('application/json'), secret: false },
        {
          name: 'X-Region',
          value: { segments: [{ variable: 'region', span: expect.anything() }] },
          secret: false,
        },
      ],
    });
    expect(servers.slack).toMatchObject({
      kind: 'url',
      oauth: {
        clientId: text('abc'),
        clientSecret: { segments: [{ variable: 'api_key' }] },
      },
    });
    expect(config.mcpServers.get('local')?.span).toMatchObject({ start: { line: 7, column: 5 } });
  });

  it('keeps the client metadata document URL of a url server', () => {
    const { config } = decodeText(
      'mcp "m" {\n  url                 = "https://x.dev/mcp"\n  client_metadata_url = "https://sortie.example/client.json"\n}\n',
    );
    expect(config.mcpServers.get('m')?.transport).toMatchObject({
      kind: 'url',
      clientMetadataUrl: 'https://sortie.example/client.json',
    });
  });

  it('lets a server sample with sampling = true, and not without it', () => {
    const { config, diagnostics } = decodeText(
      'mcp "a" {\n  command  = "srv"\n  sampling = true\n}\nmcp "b" {\n  url      = "https://x.dev/mcp"\n  sampling = false\n}\nmcp "c" {\n  command = "srv"\n}\n',
    );
    expect(diagnostics).toEqual([]);
    const sampling = [...config.mcpServers.values()].map((server) => server.sampling);
    expect(sampling).toEqual([true, false, false]);
  });

  it('marks a setting secret when it interpolates a secret variable, whatever its name', () => {
    const { config } = decodeText(
      'variable "k" {\n  secret = true\n}\nmcp "m" {\n  command = "srv"\n  env     = { PLAIN = "x-${vars.k}" }\n}\n',
    );
    const transport = config.mcpServers.get('m')?.transport;
    expect(transport?.kind === 'command' && transport.env[0]?.secret).toBe(true);
  });

  it.each([
    [
      'no way to reach it',
      'mcp "m" {\n}',
      ['error 1:1 mcp "m" needs one of command, url or source'],
    ],
    [
      'two ways to reach it',
      'mcp "m" {\n  command = "a"\n  url     = "https://x.dev/mcp"\n  source  = "npm:x"\n  version = "1"\n}',
      [
        'error 3:3 url cannot be combined with command: an MCP server has exactly one of command, url or source',
        'error 4:3 source cannot be combined with command: an MCP server has exactly one of command, url or source',
      ],
    ],
    [
      'env and args on a url server',
      'mcp "m" {\n  url  = "https://x.dev/mcp"\n  env  = { A = "b" }\n  args = ["x"]\n}',
      [
        'error 3:3 env is not valid on a url server: it is for a process sortie starts (command or source)',
        'error 4:3 args is not valid on a url server: they are for a process sortie starts (command or source)',
      ],
    ],
    [
      'headers and OAuth client on a command server',
      'mcp "m" {\n  command       = "srv"\n  headers       = { A = "b" }\n  client_id     = "id"\n  client_secret = "s"\n}',
      [
        'error 3:3 headers is only valid on a url server',
        'error 4:3 client_id is only valid on a url server',
      ],
    ],
    [
      'a client metadata document URL that is not https with a path, or on a command server',
      'mcp "a" {\n  url                 = "https://x.dev/mcp"\n  client_metadata_url = "http://x.dev/client.json"\n}\nmcp "b" {\n  url                 = "https://x.dev/mcp"\n  client_metadata_url = "https://x.dev/"\n}\nmcp "c" {\n  command             = "srv"\n  client_metadata_url = "https://x.dev/client.json"\n}',
      [
        'error 3:25 client_metadata_url must be an https:// URL with a path (the client\'s metadata document), got "http://x.dev/client.json"',
        'error 7:25 client_metadata_url must be an https:// URL with a path (the client\'s metadata document), got "https://x.dev/"',
        'error 11:3 client_metadata_url is only valid on a url server',
      ],
    ],
    [
      'a client secret without a client id',
      'mcp "m" {\n  url           = "https://x.dev/mcp"\n  client_secret = "s"\n}',
      ['error 3:3 client_secret requires client_id'],
    ],
    [
      'a source without a version, a version without a source',
      'mcp "a" {\n  source = "npm:pkg"\n}\nmcp "b" {\n  command = "srv"\n  version = "1.0.0"\n}',
      [
        'error 2:3 version is required with source: the release to install, e.g. version = "1.2.0"',
        'error 6:3 version is only valid with source',
      ],
    ],
    [
      'sources of an unknown kind or shape',
      'mcp "a" {\n  source  = "pypi:pkg"\n  version = "1"\n}\nmcp "b" {\n  source  = "npm: "\n  version = "1"\n}\nmcp "c" {\n  source  = "github.com/owner"\n  version = "1"\n}',
      [
        'error 2:13 source must start with "npm:" or "github.com/", got "pypi:pkg"',
        'error 6:13 source "npm:" needs a package name, e.g. "npm:@modelcontextprotocol/server-filesystem"',
        'error 10:13 source "github.com/owner" must be github.com/OWNER/REPO',
      ],
    ],
    [
      'entry without a github source, or leaving the archive',
      'mcp "a" {\n  source  = "npm:pkg"\n  version = "1"\n  entry   = "bin/x"\n}\nmcp "b" {\n  command = "srv"\n  entry   = "bin/x"\n}\nmcp "c" {\n  source  = "github.com/o/r"\n  version = "1"\n  entry   = "../x"\n}',
      [
        'error 4:3 entry is only valid with a github.com/OWNER/REPO source',
        'error 8:3 entry is only valid with a github.com/OWNER/REPO source',
        'error 13:13 entry must be a relative path inside the release archive, without ".."',
      ],
    ],
    [
      'a url that is not http(s), reserved names, unknown attributes and wrong types',
      'mcp "a" {\n  url = "ftp://x.dev/mcp"\n}\nmcp "http" {\n  command = "srv"\n}\nmcp "b" {\n  comand = "srv"\n  args   = "x"\n  env    = ["A"]\n}',
      [
        'error 2:9 url must be an http:// or https:// URL, got "ftp://x.dev/mcp"',
        'error 4:5 mcp server name "http" is reserved: http, dataset, utils, human, mcp name built-in tool namespaces',
        'error 7:1 mcp "b" needs one of command, url or source',
        'error 8:3 unknown attribute "comand" (did you mean "command"?)',
        'error 9:12 args must be a list: [ ... ]',
        'error 10:12 env must be a map: { NAME = "value" }',
      ],
    ],
    [
      'a sampling that is not a boolean',
      'mcp "m" {\n  command  = "srv"\n  sampling = "yes"\n}',
      ['error 3:14 sampling must be true or false'],
    ],
    [
      'an empty string counts as not set',
      'mcp "m" {\n  command = "srv"\n  entry   = ""\n  url     = ""\n}',
      [],
    ],
    [
      'duplicate server names',
      'mcp "m" {\n  command = "a"\n}\nmcp "m" {\n  command = "b"\n}',
      ['error 4:5 duplicate mcp "m"'],
    ],
  ])('reports %s', (_name, text, expected) => {
    expect(diagnose(`${text}\n`)).toEqual(expected);
  });
});

describe('MCP tool references', () => {
  const agent = (tools: string) =>
    `${PRELUDE}mcp "fs" {\n  command = "srv"\n}\nagent "a" {\n  model = models.openai.gpt_4o\n  personality = "p"\n  tools = [${tools}]\n}\n`;

  it('keeps mcp.SERVER.all and mcp.SERVER.TOOL as unresolved references with their position', () => {
    const { config, diagnostics } = decodeText(
      agent('mcp.fs.all, mcp.fs.read_file, "mcp.fs.write-file", mcp.fs.read_file'),
    );
    expect(diagnostics).toEqual([]);
    expect(
      config.agents
        .get('a')
        ?.tools.map((tool) =>
          tool.kind === 'mcp'
            ? [tool.server, tool.tool, tool.span.start.line, tool.span.start.column]
            : [],
        ),
    ).toEqual([
      ['fs', undefined, 20, 12],
      ['fs', 'read_file', 20, 24],
      ['fs', 'write-file', 20, 42],
    ]);
  });

  it('reports an unknown server and malformed references', () => {
    expect(diagnose(agent('mcp.fss.all, mcp.fs, mcp.fs.a.b'))).toEqual([
      'error 20:12 unknown MCP server "fss" in tools (did you mean "fs"?)',
      'error 20:25 an MCP tool reference reads mcp.SERVER.TOOL or mcp.SERVER.all, got mcp.fs',
      'error 20:33 an MCP tool reference reads mcp.SERVER.TOOL or mcp.SERVER.all, got mcp.fs.a.b',
    ]);
  });

  it('says how to declare a server when there is none', () => {
    const { diagnostics } = decodeText(
      `${PRELUDE}agent "a" {\n  model = models.openai.gpt_4o\n  personality = "p"\n  tools = [mcp.fs.all]\n}\n`,
    );
    expect(diagnostics.map((d) => [d.message, d.hint])).toEqual([
      ['unknown MCP server "fs" in tools', 'declare the server with an mcp "NAME" { ... } block'],
    ]);
  });
});
