/**
 * Where sortie keeps what an OAuth login to a remote MCP server gives: one JSON file per server
 * URL (client registration, tokens, discovery, a scope a server asked for), mode 0600 in a
 * folder of mode 0700 under the user's sortie home. Nothing else of sortie reads these files.
 */
import { createHash, randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';

/** The auth folder's name inside the sortie home. */
export const MCP_AUTH_FOLDER = 'mcp-auth';

/** What one server's file holds. */
export interface StoredAuth {
  /** The server's URL as the `mcp` block gives it: the file's key. */
  serverUrl: string;
  /** The `mcp` block name last used with this URL (status and logout name it). */
  server: string;
  client?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  /** When the tokens were received (ms since the epoch): with `expires_in`, their expiry. */
  obtainedAt?: number;
  discovery?: OAuthDiscoveryState;
  /** A scope the server asked for (`insufficient_scope`) that the next login requests. */
  scopeNeeded?: string;
}

/**
 * The folder of the auth files: `$SORTIE_HOME/mcp-auth` when SORTIE_HOME is set (the name the
 * state directory's override uses, see journal/paths.ts), else under `$XDG_STATE_HOME/sortie`
 * or `$HOME/.local/state/sortie`, as the run index; undefined when none is set.
 */
export function mcpAuthDirectory(env: Record<string, string | undefined>): string | undefined {
  const home = env.SORTIE_HOME;
  if (home !== undefined && home !== '') return join(resolve(home), MCP_AUTH_FOLDER);
  const state = env.XDG_STATE_HOME;
  if (state !== undefined && state !== '') return join(resolve(state), 'sortie', MCP_AUTH_FOLDER);
  const user = env.HOME;
  if (user !== undefined && user !== '') {
    return join(resolve(user), '.local', 'state', 'sortie', MCP_AUTH_FOLDER);
  }
  return undefined;
}

/** The auth files of one folder; `now` is the clock expiry is read with (tests move it). */
export class AuthStore {
  constructor(
    readonly directory: string,
    readonly now: () => number = Date.now,
  ) {}

  /** The file of a server URL: a hash, so any URL makes one plain file name. */
  fileOf(serverUrl: string): string {
    const digest = createHash('sha256').update(serverUrl).digest('hex').slice(0, 32);
    return join(this.directory, `${digest}.json`);
  }

  /** The stored record of a URL, or undefined (no file, or one that is not a record). */
  async read(serverUrl: string): Promise<StoredAuth | undefined> {
    let text: string;
    try {
      text = await readFile(this.fileOf(serverUrl), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    const record = parseRecord(text);
    return record?.serverUrl === serverUrl ? record : undefined;
  }

  /** Changes a URL's record (made when missing) and writes it atomically, mode 0600. */
  async update(
    serverUrl: string,
    server: string,
    change: (record: StoredAuth) => StoredAuth,
  ): Promise<StoredAuth> {
    const record = change((await this.read(serverUrl)) ?? { serverUrl, server });
    record.server = server;
    await mkdir(this.directory, { recursive: true, mode: 0o700 });
    const file = this.fileOf(serverUrl);
    const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    await writeFile(temporary, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
    // A umask cannot widen 0600, but an existing temporary name could keep its mode: set it.
    await chmod(temporary, 0o600);
    await rename(temporary, file);
    return record;
  }

  /** Removes a URL's file; false when there was none. */
  async remove(serverUrl: string): Promise<boolean> {
    const file = this.fileOf(serverUrl);
    const existed = (await this.read(serverUrl)) !== undefined;
    await rm(file, { force: true });
    return existed;
  }

  /** Every record of the folder (none when it does not exist). */
  async all(): Promise<StoredAuth[]> {
    let names: string[];
    try {
      names = await readdir(this.directory);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const records: StoredAuth[] = [];
    for (const name of names.filter((entry) => entry.endsWith('.json')).sort()) {
      const text = await readFile(join(this.directory, name), 'utf8').catch(() => '');
      const record = parseRecord(text);
      if (record !== undefined) records.push(record);
    }
    return records;
  }

  /** When the stored access token expires (ms), when the server said. */
  expiresAt(record: StoredAuth): number | undefined {
    const seconds = record.tokens?.expires_in;
    if (seconds === undefined || record.obtainedAt === undefined) return undefined;
    return record.obtainedAt + seconds * 1000;
  }
}

function parseRecord(text: string): StoredAuth | undefined {
  try {
    const value = JSON.parse(text) as Partial<StoredAuth> | null;
    if (typeof value?.serverUrl !== 'string' || typeof value.server !== 'string') return undefined;
    return value as StoredAuth;
  } catch {
    return undefined;
  }
}
