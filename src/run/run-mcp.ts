/**
 * The MCP servers of a run: the pool built from the project's `mcp` blocks (each server's
 * variables read only when it first starts) and the tool references of a mission, checked
 * when the mission starts so a tool a server lacks is reported before any model request.
 */
import { isAbsolute, join } from 'node:path';
import { ConfigError } from '../base/errors.ts';
import { resolveMcpServer } from '../config/mcp-values.ts';
import type { Config } from '../config/config-types.ts';
import {
  AuthStore,
  mcpAuthDirectory,
  McpPool,
  McpStartError,
  type McpServerSpec,
} from '../tools/mcp/index.ts';

/**
 * A pool with every declared server; the run closes it when it ends. Url servers use the
 * OAuth logins of the user's sortie home (`sortie mcp login`), found through `env`.
 */
export function createRunMcpPool(
  config: Config,
  stateDir: string,
  env: Record<string, string | undefined> = process.env,
): McpPool {
  const servers = new Map<string, () => McpServerSpec>();
  for (const name of config.mcpServers.keys()) servers.set(name, () => serverSpec(config, name));
  const authDirectory = mcpAuthDirectory(env);
  const authStore = authDirectory === undefined ? undefined : new AuthStore(authDirectory);
  // Installed `source` servers live under `<state dir>/mcp/` (the sortie home).
  return new McpPool(servers, join(stateDir, 'mcp'), authStore);
}

/**
 * A server's settings with variables read. A relative command path (one with a `/`) is taken
 * from the project root, where every server runs, so a project behaves the same wherever
 * sortie is started.
 */
export function serverSpec(config: Config, name: string): McpServerSpec {
  const spec = transportSpec(config, name);
  return config.mcpServers.get(name)?.sampling === true ? { ...spec, sampling: true } : spec;
}

function transportSpec(config: Config, name: string): McpServerSpec {
  let transport;
  try {
    transport = resolveMcpServer(config, name);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const reasons = error.diagnostics.map((diagnostic) => diagnostic.message).join('; ');
    throw new McpStartError(name, reasons);
  }
  switch (transport.kind) {
    case 'command': {
      const { command } = transport;
      const local = command.includes('/') && !isAbsolute(command);
      return {
        kind: 'command',
        name,
        command: local ? join(config.root, command) : command,
        args: transport.args,
        env: transport.env,
        cwd: config.root,
      };
    }
    case 'npm':
    case 'github':
      return { ...transport, name };
    case 'url': {
      const { oauth, clientMetadataUrl } = transport;
      return {
        kind: 'url',
        name,
        url: transport.url,
        headers: transport.headers,
        oauth: {
          ...(oauth !== undefined ? oauth : {}),
          ...(clientMetadataUrl !== undefined ? { clientMetadataUrl } : {}),
        },
      };
    }
  }
}
