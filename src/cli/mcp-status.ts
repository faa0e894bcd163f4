/**
 * `sortie mcp status [DIR]`: each `mcp` block of the project with where it is, how sortie
 * authenticates to it and when its stored login expires. Read from the auth files only: no
 * server is contacted, so it answers at once and offline.
 */
import { ExitCode } from '../base/exit-codes.ts';
import type { Config } from '../config/config-types.ts';
import type { McpTransport } from '../config/mcp-config-types.ts';
import { alignRows } from '../present/columns.ts';
import { serverSpec } from '../run/run-mcp.ts';
import { McpStartError, type AuthStore } from '../tools/mcp/index.ts';
import type { CliIo } from './io.ts';
import { authStoreOf, loadMcpProject } from './mcp-command.ts';

/** Runs the command; returns the exit code. */
export async function mcpStatus(
  directory: string,
  varFlags: readonly string[],
  io: CliIo,
): Promise<number> {
  const config = await loadMcpProject(directory, varFlags, io);
  if (config.mcpServers.size === 0) {
    io.stdout('The project declares no mcp servers.\n');
    return ExitCode.ok;
  }
  const store = authStoreOf(io);
  const rows = [['NAME', 'LOCATION', 'AUTH', 'EXPIRES']];
  for (const name of [...config.mcpServers.keys()].sort()) {
    rows.push(await statusRow(config, name, store));
  }
  for (const row of alignRows(rows, new Set())) io.stdout(`${row.join('  ')}\n`);
  return ExitCode.ok;
}

async function statusRow(config: Config, name: string, store: AuthStore): Promise<string[]> {
  const transport = config.mcpServers.get(name)?.transport as McpTransport;
  if (transport.kind !== 'url') return [name, localLocation(transport), 'local process', '-'];
  let spec;
  try {
    spec = serverSpec(config, name);
  } catch (error) {
    if (!(error instanceof McpStartError)) throw error;
    return [name, 'url (variables not set)', 'unknown', '-'];
  }
  if (spec.kind !== 'url') return [name, spec.kind, 'local process', '-'];
  const record = await store.read(spec.url);
  const expiresAt = record === undefined ? undefined : store.expiresAt(record);
  const expires = expiresAt === undefined ? '-' : new Date(expiresAt).toISOString();
  if (record?.tokens !== undefined) {
    const expired = expiresAt !== undefined && expiresAt <= store.now();
    const renewable = record.tokens.refresh_token !== undefined;
    const state = !expired
      ? 'logged in'
      : renewable
        ? 'expired (renewed on use)'
        : 'expired: log in again';
    const wider = record.scopeNeeded === undefined ? '' : `; needs scope "${record.scopeNeeded}"`;
    return [name, spec.url, `${state}${wider}`, expires];
  }
  const oauth = spec.oauth ?? {};
  if (oauth.clientId !== undefined && oauth.clientSecret !== undefined) {
    return [name, spec.url, 'client credentials', '-'];
  }
  const header = Object.keys(spec.headers).some((key) => key.toLowerCase() === 'authorization');
  return [name, spec.url, header ? 'header' : 'not logged in', '-'];
}

function localLocation(transport: Exclude<McpTransport, { kind: 'url' }>): string {
  switch (transport.kind) {
    case 'command':
      return transport.command;
    case 'npm':
      return `npm:${transport.package}@${transport.version}`;
    case 'github':
      return `github.com/${transport.owner}/${transport.repo}@${transport.version}`;
  }
}
