/**
 * What `sortie serve` checks and says about the project's `mcp_host` block: the endpoint needs
 * a secret on any address but loopback (like the API's token), `--mcp-port` needs an enabled
 * block, and the first lines say where the endpoint listens or why it is off.
 */
import { UsageError } from '../base/errors.ts';
import type { McpHostConfig } from '../config/serve-config-types.ts';

/** Refuses, before anything listens, an `mcp_host` setup that would serve runs to anyone. */
export function checkMcpHost(
  block: McpHostConfig | undefined,
  address: string,
  mcpPort: number | undefined,
  isLoopback: (host: string) => boolean,
): void {
  const enabled = block?.enabled === true;
  if (mcpPort !== undefined && !enabled) {
    throw new UsageError(
      '--mcp-port sets the MCP endpoint of an mcp_host block, and the project enables none',
      'add mcp_host { enabled = true } to the project, or leave out --mcp-port',
    );
  }
  if (enabled && block?.secret === undefined && block?.unsetSecretVariable === undefined) {
    if (isLoopback(address)) return;
    throw new UsageError(
      `refusing to serve mcp_host on ${address} without a secret: anyone who can reach it could start runs`,
      'set secret in the mcp_host block, or listen on 127.0.0.1',
    );
  }
}

/** The line about the MCP endpoint: its URL, why it is off, or nothing when it is not enabled. */
export function mcpHostLine(
  block: McpHostConfig | undefined,
  url: string | undefined,
): string | undefined {
  if (url !== undefined) return `mcp host listening on ${url}`;
  if (block?.enabled !== true || block.unsetSecretVariable === undefined) return undefined;
  return `mcp_host is off: its secret, variable "${block.unsetSecretVariable}", has no value`;
}
