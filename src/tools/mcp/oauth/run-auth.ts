/**
 * The OAuth side of a run's connection to a url server: the stored login (refreshed by the
 * SDK when the server refuses its token), else the client-credentials grant when the `mcp`
 * block gives a client id and secret (unattended runs and workers), else a provider that
 * reports the missing login. A server's `insufficient_scope` answer is noted for the next
 * login and ends the call: a run cannot widen a grant without the person.
 */
import { ClientCredentialsProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import {
  discoverOAuthServerInfo,
  extractWWWAuthenticateParams,
  type OAuthClientProvider,
} from '@modelcontextprotocol/sdk/client/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { McpLoginRequiredError } from '../mcp-errors.ts';
import type { AuthStore } from './auth-store.ts';
import { StoredOAuthProvider, type ConfiguredClient } from './stored-provider.ts';

/** What a url connection adds to its transport for OAuth. */
export interface RunAuth {
  provider: OAuthClientProvider;
  /** Sends the transport's requests, watching the server's answers for a wider scope. */
  fetch: FetchLike;
  /** The tokens in use, masked in what the server's tools return. */
  tokenValues(): string[];
}

/** How a run reaches OAuth for one server: the auth files and the block's client. */
export interface RunAuthOptions {
  server: string;
  serverUrl: string;
  store: AuthStore;
  configured: ConfiguredClient;
}

/** The provider and fetch of one connection (the stored record read now). */
export async function runAuth(options: RunAuthOptions): Promise<RunAuth> {
  const { server, serverUrl, store, configured } = options;
  const stored = await store.read(serverUrl);
  const { clientId, clientSecret } = configured;
  const provider: OAuthClientProvider =
    stored?.tokens === undefined && clientId !== undefined && clientSecret !== undefined
      ? new ClientCredentialsProvider({
          clientId,
          clientSecret,
          clientName: 'sortie',
          expectedIssuer: await pinnedIssuer(options),
        })
      : await StoredOAuthProvider.open({ server, serverUrl, store, configured });
  return {
    provider,
    fetch: scopeWatchingFetch(options),
    tokenValues: () => {
      const tokens = provider.tokens() as ReturnType<StoredOAuthProvider['tokens']>;
      return [tokens?.access_token, tokens?.refresh_token].filter(
        (value): value is string => value !== undefined && value !== '',
      );
    },
  };
}

/**
 * The authorization server the client secret may be sent to: the one found the first time
 * (kept in the auth file), so a server that later names another one is refused by the SDK
 * instead of handing the secret to it.
 */
async function pinnedIssuer(options: RunAuthOptions): Promise<string> {
  const { server, serverUrl, store } = options;
  const known = (await store.read(serverUrl))?.discovery?.authorizationServerUrl;
  if (known !== undefined) return known;
  const found = await discoverOAuthServerInfo(serverUrl);
  await store.update(serverUrl, server, (record) => ({ ...record, discovery: found }));
  return found.authorizationServerUrl;
}

/**
 * `fetch` that turns the server's 403 `insufficient_scope` into McpLoginRequiredError, after
 * noting the scope it asked for, which the next `sortie mcp login` requests.
 */
function scopeWatchingFetch(options: RunAuthOptions): FetchLike {
  const { server, serverUrl, store } = options;
  return async (url, init) => {
    const response = await fetch(url, init);
    if (response.status !== 403 || String(url) !== serverUrl) return response;
    const { error, scope } = extractWWWAuthenticateParams(response);
    if (error !== 'insufficient_scope') return response;
    await response.body?.cancel();
    await store.update(serverUrl, server, (record) => ({
      ...record,
      ...(scope !== undefined ? { scopeNeeded: joinScopes(record.scopeNeeded, scope) } : {}),
    }));
    const asked = scope === undefined ? 'more access' : `the scope "${scope}"`;
    throw new McpLoginRequiredError(server, `it asks for ${asked}, which the stored one lacks`);
  };
}

/** Two space-separated scope lists as one, each scope once, in first-seen order. */
export function joinScopes(first: string | undefined, second: string): string {
  const scopes = [...(first ?? '').split(' '), ...second.split(' ')].filter((item) => item !== '');
  return [...new Set(scopes)].join(' ');
}
