import { describe, expect, it } from 'vitest';
import { decodeText, diagnose, PRELUDE } from './helpers.ts';

describe('agents', () => {
  it('expands builtins.*.all, keeps tool order, and resolves custom tools', () => {
    const { config, diagnostics } = decodeText(
      `${PRELUDE}tool "weather" {\n  implements = builtins.http.get\n  description = "Weather"\n  url = "https://wttr.in"\n}\nagent "b" {\n  model = models.openai.gpt_4o\n  personality = "p"\n  tools = [tools.weather, builtins.utils.all, "builtins.http.all", builtins.http.get]\n  max_turns = 10\n  tool_response {\n    max_tokens = 32000\n  }\n}\n`,
    );
    expect(diagnostics).toEqual([]);
    const agent = config.agents.get('b');
    expect(
      agent?.tools.map((tool) => `${tool.kind}:${tool.kind === 'mcp' ? tool.server : tool.name}`),
    ).toEqual([
      'custom:weather',
      'builtin:builtins.utils.current_time',
      'builtin:builtins.utils.sleep',
      'builtin:builtins.http.get',
      'builtin:builtins.http.post',
      'builtin:builtins.http.put',
      'builtin:builtins.http.patch',
      'builtin:builtins.http.delete',
    ]);
    expect([agent?.maxTurns, agent?.toolResponseMaxTokens]).toEqual([10, 32000]);
    expect([
      config.agents.get('writer')?.maxTurns,
      config.agents.get('writer')?.toolResponseMaxTokens,
    ]).toEqual([50, 16000]);
  });

  it('reports unknown and unsupported tool references and out-of-range limits', () => {
    expect(
      diagnose(
        `${PRELUDE}agent "b" {\n  model = models.openai.gpt_4o\n  personality = "p"\n  tools = [tools.wether, builtins.http.gets, plugins.bash.bash, mcp.fs.read, skills.x.y, packets.p.q, agents.writer]\n  max_turns = 0\n  tool_response {\n    max_tokens = 64001\n  }\n}\n`,
      ),
    ).toMatchInlineSnapshot(`
      [
        "error 17:12 unknown tool "wether" in tools",
        "error 17:26 unknown built-in tool "builtins.http.gets" (did you mean "builtins.http.get"?)",
        "error 17:46 \`plugins.*\` references are not supported by sortie (\`plugin\` blocks are not supported)",
        "error 17:65 unknown MCP server "fs" in tools",
        "error 17:78 tools expects references like builtins.http.get, tools.NAME or mcp.SERVER.TOOL, got skills.x.y",
        "error 17:90 tools expects references like builtins.http.get, tools.NAME or mcp.SERVER.TOOL, got packets.p.q",
        "error 17:103 tools expects references like builtins.http.get, tools.NAME or mcp.SERVER.TOOL, got agents.writer",
        "error 18:15 max_turns must be 1 or more",
        "warning 20:18 max_tokens 64001 is above the maximum 64000: 64000 is used",
      ]
    `);
  });
});

describe('parallel_tool_calls', () => {
  const agent = (line: string) =>
    `${PRELUDE}agent "b" {\n  model = models.openai.gpt_4o\n  personality = "p"\n${line}}\n`;

  it('is true by default and false when set so', () => {
    expect(decodeText(agent('')).config.agents.get('b')?.parallelToolCalls).toBe(true);
    const { config, diagnostics } = decodeText(agent('  parallel_tool_calls = false\n'));
    expect(diagnostics).toEqual([]);
    expect(config.agents.get('b')?.parallelToolCalls).toBe(false);
  });

  it('must be true or false', () => {
    expect(diagnose(agent('  parallel_tool_calls = "no"\n'))).toEqual([
      'error 17:25 parallel_tool_calls must be true or false',
    ]);
  });
});

describe('custom tools', () => {
  it('keeps url, headers, query and body as expressions and applies defaults', () => {
    const { config, diagnostics } = decodeText(
      `${PRELUDE}variable "token" {\n  default = "t"\n}\ntool "todo" {\n  implements = builtins.http.post\n  description = "Create a todo"\n  inputs = {\n    title = string("Title", true)\n  }\n  url = "https://example.com/todos"\n  headers = { Authorization = "Bearer \${vars.token}" }\n  query = { v = "1" }\n  body = {\n    title = inputs.title\n    done  = false\n  }\n}\n`,
    );
    expect(diagnostics).toEqual([]);
    const tool = config.tools.get('todo');
    expect([
      tool?.implements,
      tool?.timeoutSeconds,
      tool?.headers.map((h) => h.name),
      tool?.query.map((q) => q.name),
    ]).toEqual(['post', 30, ['Authorization'], ['v']]);
    expect(tool?.body?.kind).toBe('object');
    expect(tool?.inputs?.fields.map((field) => field.name)).toEqual(['title']);
  });

  it('checks implements, references in request fields, body on get and the timeout', () => {
    expect(
      diagnose(
        `tool "a" {\n  implements = plugins.http.get\n  description = "A"\n  url = "x"\n}\ntool "b" {\n  implements = builtins.utils.sleep\n  description = "B"\n  url = "x"\n}\ntool "c" {\n  implements = builtins.http.get\n  description = "C"\n  inputs = {\n    city = string("City", true)\n  }\n  url = "https://x/\${inputs.cty}/\${vars.nope}/\${other.x}"\n  body = { a = 1 }\n  timeout_seconds = 0\n}\ntool "d" {\n  implements = builtins.http.get\n  description = "D"\n  url = "https://x/\${inputs.city}"\n}\n`,
      ),
    ).toMatchInlineSnapshot(`
      [
        "error 2:16 \`plugins.*\` references are not supported by sortie (\`plugin\` blocks are not supported)",
        "error 7:16 implements must be one of builtins.http.get, builtins.http.post, builtins.http.put, builtins.http.patch, builtins.http.delete",
        "error 17:22 unknown input "cty" (did you mean "city"?)",
        "warning 17:36 vars.nope has no variable "nope" block: it is read like a secret variable",
        "error 17:49 unknown reference "other" in url: use inputs.NAME or vars.NAME",
        "error 18:10 body is not allowed with builtins.http.get",
        "error 19:21 timeout_seconds must be greater than 0",
        "error 24:22 unknown input "city": this tool declares no inputs",
      ]
    `);
  });

  it('checks content_type: only with a body method, and a literal kind must be known', () => {
    const tool = (name: string, method: string, contentType: string) =>
      `tool "${name}" {\n  implements = builtins.http.${method}\n  url = "https://x"\n  content_type = ${contentType}\n}\n`;
    expect(
      diagnose(
        tool('a', 'post', '"form"') +
          tool('b', 'put', '"txt"') +
          tool('c', 'get', '"json"') +
          tool('d', 'delete', '"text"') +
          tool('e', 'patch', 'vars.kind'),
      ),
    ).toMatchInlineSnapshot(`
      [
        "error 9:18 content_type must be "json", "form" or "text", not "txt" (did you mean "text"?)",
        "error 14:18 content_type is not allowed with builtins.http.get (it sends no body)",
        "error 19:18 content_type is not allowed with builtins.http.delete (it sends no body)",
        "warning 24:18 vars.kind has no variable "kind" block: it is read like a secret variable",
      ]
    `);
  });

  it('requires implements and url', () => {
    expect(diagnose(`tool "a" {\n}\n`)).toMatchInlineSnapshot(`
      [
        "error 1:1 missing required attribute "implements"",
        "error 1:1 missing required attribute "url"",
      ]
    `);
  });

  it('leaves out a missing description: the tool then reads as the built-in it wraps', () => {
    const { config, diagnostics } = decodeText(
      `tool "ping" {\n  implements = builtins.http.get\n  url = "https://example.com/ping"\n}\n`,
    );
    expect(diagnostics).toEqual([]);
    expect(config.tools.get('ping')).not.toHaveProperty('description');
  });
});
