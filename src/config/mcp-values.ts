/**
 * What the runtime needs to start and reach an MCP server, with its variables resolved, and the
 * values of its configuration that must never be printed.
 */
import { ConfigError } from '../base/errors.ts';
import { agentsOfMission } from './mission-lookup.ts';
import { missingInDeferred, resolveDeferredString, resolveIfSet } from './resolve-model.ts';
import type { Config, DeferredString, MissionConfig, ToolRef } from './config-types.ts';
import type {
  McpCommandTransport,
  McpGithubTransport,
  McpNpmTransport,
  McpServerConfig,
  McpSetting,
} from './mcp-config-types.ts';

/** A url server's wire protocol: the older SSE transport when the URL's path ends in `/sse`. */
export function mcpUrlProtocol(url: string): 'sse' | 'streamable_http' {
  const path = new URL(url).pathname.replace(/\/+$/, '');
  return path.endsWith('/sse') ? 'sse' : 'streamable_http';
}

/** A server process's transport with its arguments and environment resolved to text. */
type ResolvedProcess<T> = Omit<T, 'args' | 'env'> & { args: string[]; env: Record<string, string> };

/** An MCP server's transport with every deferred value resolved to text. */
export type ResolvedMcpTransport =
  | ResolvedProcess<McpCommandTransport>
  | ResolvedProcess<McpNpmTransport>
  | ResolvedProcess<McpGithubTransport>
  | {
      kind: 'url';
      url: string;
      protocol: 'sse' | 'streamable_http';
      headers: Record<string, string>;
      oauth?: { clientId: string; clientSecret?: string };
      clientMetadataUrl?: string;
    };

/** Every deferred value of a server, for checks of unset variables. */
export function mcpDeferredValues(server: McpServerConfig): DeferredString[] {
  const { transport } = server;
  if (transport.kind === 'url') {
    const oauth = transport.oauth;
    return [
      transport.url,
      ...transport.headers.map((setting) => setting.value),
      ...(oauth ? [oauth.clientId, ...(oauth.clientSecret ? [oauth.clientSecret] : [])] : []),
    ];
  }
  return [...transport.args, ...transport.env.map((setting) => setting.value)];
}

/**
 * The server's transport with variables resolved. Throws one ConfigError naming every unset
 * variable it uses (`requireVariables` reports them before a run starts).
 */
export function resolveMcpServer(config: Config, name: string): ResolvedMcpTransport {
  const server = config.mcpServers.get(name);
  if (server === undefined) throw new Error(`unknown MCP server "${name}"`);
  const path = [`mcp "${name}"`];
  const missing = mcpDeferredValues(server).flatMap((value) =>
    missingInDeferred(config, value, path),
  );
  if (missing.length > 0) throw new ConfigError(missing);
  const text = (value: DeferredString): string => resolveDeferredString(config, value, path);
  const settings = (list: readonly McpSetting[]): Record<string, string> =>
    Object.fromEntries(list.map((setting) => [setting.name, text(setting.value)]));
  const { transport } = server;
  if (transport.kind === 'url') {
    const url = text(transport.url);
    const resolved: ResolvedMcpTransport = {
      kind: 'url',
      url,
      protocol: mcpUrlProtocol(url),
      headers: settings(transport.headers),
    };
    if (transport.clientMetadataUrl !== undefined) {
      resolved.clientMetadataUrl = transport.clientMetadataUrl;
    }
    if (transport.oauth) {
      const { clientId, clientSecret } = transport.oauth;
      resolved.oauth = { clientId: text(clientId) };
      if (clientSecret) resolved.oauth.clientSecret = text(clientSecret);
    }
    return resolved;
  }
  return { ...transport, args: transport.args.map(text), env: settings(transport.env) };
}

/**
 * The texts of every server value marked secret (credential-like `env`/`headers` entries, OAuth
 * client secrets) whose variables are set: redacted from every output. Values of secret
 * variables are redacted on their own already.
 */
export function mcpSecretValues(config: Config): string[] {
  const values: string[] = [];
  for (const server of config.mcpServers.values()) {
    const { transport } = server;
    const path = [`mcp "${server.name}"`];
    const secret =
      transport.kind === 'url'
        ? [
            ...transport.headers.filter((setting) => setting.secret).map((s) => s.value),
            ...(transport.oauth?.clientSecret ? [transport.oauth.clientSecret] : []),
          ]
        : transport.env.filter((setting) => setting.secret).map((setting) => setting.value);
    for (const value of secret) {
      const resolved = resolveIfSet(config, value, path);
      if (resolved !== undefined && resolved !== '') values.push(resolved);
    }
  }
  return values;
}

/**
 * The MCP servers a mission's agents may call, directly or through their skills, in first-use
 * order: the servers a run of it starts when first needed.
 */
export function mcpServersOfMission(config: Config, mission: MissionConfig): string[] {
  const servers = new Set<string>();
  const collect = (tools: readonly ToolRef[]): void => {
    for (const tool of tools) if (tool.kind === 'mcp') servers.add(tool.server);
  };
  for (const agent of agentsOfMission(config, mission)) {
    collect(agent.tools);
    for (const skill of agent.skills) collect(skill.tools);
  }
  return [...servers];
}
