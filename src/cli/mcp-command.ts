/**
 * `sortie mcp login` and `sortie mcp logout`: the project names the server (its `mcp` block),
 * the auth files under the sortie home keep the login. Nothing here prints a token.
 */
import { UsageError } from '../base/errors.ts';
import { ExitCode } from '../base/exit-codes.ts';
import { didYouMean } from '../base/suggest.ts';
import type { Config } from '../config/config-types.ts';
import { serverSpec } from '../run/run-mcp.ts';
import {
  AuthStore,
  LoginCallbackError,
  loginToServer,
  mcpAuthDirectory,
  McpStartError,
  type McpServerSpec,
} from '../tools/mcp/index.ts';
import type { CliIo } from './io.ts';
import type { McpLoginFlags } from './mcp.ts';
import { openBrowser } from './open-browser.ts';
import { parseVarFlags } from './var-flags.ts';

/** How long a login waits for the browser to come back. */
const LOGIN_WAIT_MS = 300_000;

/** The project's configuration, loaded as for a run (diagnostics printed on errors). */
export async function loadMcpProject(
  directory: string,
  varFlags: readonly string[],
  io: CliIo,
): Promise<Config> {
  const { loadProject } = await import('../config/load-project.ts');
  return loadProject(directory, { vars: parseVarFlags(varFlags), env: io.env });
}

/** The auth files of this user; a usage error when no home can be found. */
export function authStoreOf(io: CliIo): AuthStore {
  const directory = mcpAuthDirectory(io.env);
  if (directory === undefined) {
    throw new UsageError('no folder for MCP logins: set SORTIE_HOME, XDG_STATE_HOME or HOME');
  }
  return new AuthStore(directory);
}

/** The url server `name` of the project, with its variables read. */
function urlServer(config: Config, name: string): Extract<McpServerSpec, { kind: 'url' }> {
  if (!config.mcpServers.has(name)) {
    const known = [...config.mcpServers.keys()];
    const list = known.length === 0 ? 'the project declares none' : `declared: ${known.join(', ')}`;
    throw new UsageError(`no mcp server "${name}"${didYouMean(name, known)}; ${list}`);
  }
  let spec: McpServerSpec;
  try {
    spec = serverSpec(config, name);
  } catch (error) {
    // An unset variable of the block: the person sets it (--var), as for a run.
    if (error instanceof McpStartError) throw new UsageError(error.message);
    throw error;
  }
  if (spec.kind !== 'url') {
    throw new UsageError(`mcp "${name}" is not a url server: only remote servers take a login`);
  }
  return spec;
}

/** Runs `sortie mcp login NAME [DIR]`; returns the exit code. */
export async function mcpLogin(
  name: string,
  directory: string,
  flags: McpLoginFlags,
  io: CliIo,
): Promise<number> {
  const config = await loadMcpProject(directory, flags.var ?? [], io);
  const spec = urlServer(config, name);
  const store = authStoreOf(io);
  io.stdout(`Checking mcp "${name}" at ${spec.url} ...\n`);
  try {
    const outcome = await loginToServer({
      server: name,
      url: spec.url,
      headers: spec.headers,
      configured: spec.oauth ?? {},
      store,
      signal: AbortSignal.timeout(LOGIN_WAIT_MS),
      openAuthorization: async (url) => {
        io.stdout(`Open this URL to log in:\n  ${url.href}\n`);
        if (flags.browser) await openBrowser(url.href, io.env);
        io.stdout('Waiting for the browser to come back ...\n');
      },
    });
    if (outcome.status === 'not-needed') {
      io.stdout(`mcp "${name}" needs no login: it answered with ${outcome.tools} tools.\n`);
      return ExitCode.ok;
    }
    const scope = outcome.scope === undefined ? '' : `, scope "${outcome.scope}"`;
    const expires =
      outcome.expiresAt === undefined
        ? ''
        : `, expires ${new Date(outcome.expiresAt).toISOString()}`;
    io.stdout(
      `Logged in to mcp "${name}" (${outcome.tools} tools${scope}${expires}); saved in ${store.directory}\n`,
    );
    return ExitCode.ok;
  } catch (error) {
    if (error instanceof McpStartError || error instanceof LoginCallbackError) {
      io.stderr(`error: ${error.message}\n`);
      return ExitCode.missionFailed;
    }
    if (error instanceof DOMException && error.name === 'TimeoutError') {
      io.stderr(`error: mcp "${name}": the browser did not come back within 5 minutes\n`);
      return ExitCode.missionFailed;
    }
    throw error;
  }
}

/** Runs `sortie mcp logout NAME [DIR]`: removes the server's auth file; returns the exit code. */
export async function mcpLogout(
  name: string,
  directory: string,
  varFlags: readonly string[],
  io: CliIo,
): Promise<number> {
  const config = await loadMcpProject(directory, varFlags, io);
  const spec = urlServer(config, name);
  const removed = await authStoreOf(io).remove(spec.url);
  io.stdout(
    removed
      ? `Logged out of mcp "${name}" (${spec.url}).\n`
      : `No login is stored for mcp "${name}" (${spec.url}).\n`,
  );
  return ExitCode.ok;
}
