/**
 * `sortie mcp login`: the OAuth authorization-code flow with PKCE for one url server, on the
 * SDK's `auth()`. The server is asked first; when it wants a login, the SDK discovers its
 * authorization server, registers sortie when needed and builds the authorization URL, which
 * the person opens; the loopback callback brings the code back, the SDK exchanges it, and the
 * tokens land in the auth file. A final connection with the stored login checks it.
 */
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { openConnection } from '../mcp-connect.ts';
import { McpStartError } from '../mcp-errors.ts';
import type { AuthStore } from './auth-store.ts';
import { startLoopbackCallback } from './loopback-callback.ts';
import { joinScopes, runAuth, type RunAuth } from './run-auth.ts';
import { StoredOAuthProvider, type ConfiguredClient } from './stored-provider.ts';

/** One url server to log in to. */
export interface LoginRequest {
  server: string;
  url: string;
  headers: Record<string, string>;
  configured: ConfiguredClient;
  store: AuthStore;
  /** Sends the person to the authorization URL (a browser, or a printed line). */
  openAuthorization(url: URL): Promise<void>;
  signal: AbortSignal;
}

/** How a login ended. */
export type LoginOutcome =
  | { status: 'not-needed'; tools: number }
  | {
      status: 'logged-in';
      tools: number;
      scope: string | undefined;
      expiresAt: number | undefined;
    };

/** Runs the login; throws McpStartError (or LoginCallbackError) saying what went wrong. */
export async function loginToServer(request: LoginRequest): Promise<LoginOutcome> {
  const { server, url, store, configured, signal } = request;
  const stored = await store.read(url);
  const callback = await startLoopbackCallback(registeredPort(stored?.client, configured));
  try {
    let pending: URL | undefined;
    const provider = await StoredOAuthProvider.open({
      server,
      serverUrl: url,
      store,
      configured,
      login: { redirectUrl: callback.redirectUrl, openAuthorization: (at) => void (pending = at) },
    });
    await forgetOtherRedirect(provider, stored?.client, configured, callback.redirectUrl);
    const probe = await connectWith(request, { provider, fetch, tokenValues: () => [] });
    if (probe.ok) return { status: 'not-needed', tools: probe.tools };
    if (pending === undefined) throw probe.error;
    const wanted = (await store.read(url))?.scopeNeeded;
    const asked = pending.searchParams.get('scope') ?? '';
    if (wanted !== undefined && joinScopes(asked, wanted) !== asked) {
      // A scope a server asked for during a run is requested with the one it asks for now.
      await auth(provider, { serverUrl: url, scope: joinScopes(asked, wanted) });
    }
    // Listening first: a browser that comes back at once must find the code awaited.
    const arriving = callback.code(provider.expectedState, signal);
    arriving.catch(() => undefined);
    await request.openAuthorization(pending);
    const code = await arriving;
    await auth(provider, { serverUrl: url, authorizationCode: code });
    const check = await connectWith(
      request,
      await runAuth({ server, serverUrl: url, store, configured }),
    );
    if (!check.ok) throw check.error;
    const record = await store.read(url);
    return {
      status: 'logged-in',
      tools: check.tools,
      scope: record?.tokens?.scope,
      expiresAt: record === undefined ? undefined : store.expiresAt(record),
    };
  } finally {
    await callback.close();
  }
}

type Probe = { ok: true; tools: number } | { ok: false; error: McpStartError };

/** Connects (initialise, list tools) and closes again: whether the server lets sortie in. */
async function connectWith(request: LoginRequest, authentication: RunAuth): Promise<Probe> {
  const endpoint = {
    kind: 'http' as const,
    url: request.url,
    headers: request.headers,
    auth: authentication,
  };
  try {
    const connection = await openConnection(request.server, endpoint, request.signal);
    await connection.close();
    return { ok: true, tools: connection.tools.length };
  } catch (error) {
    if (error instanceof McpStartError) return { ok: false, error };
    throw error;
  }
}

/** A client sortie registered itself is reused on the port it registered, when free. */
function registeredPort(client: unknown, configured: ConfiguredClient): number {
  if (configured.clientId !== undefined) return 0;
  const uri = (client as { redirect_uris?: string[] } | undefined)?.redirect_uris?.[0];
  const port = uri === undefined ? Number.NaN : Number(new URL(uri).port);
  return Number.isInteger(port) && port > 0 ? port : 0;
}

/** A registered client whose redirect is not this login's is registered again. */
async function forgetOtherRedirect(
  provider: StoredOAuthProvider,
  client: unknown,
  configured: ConfiguredClient,
  redirectUrl: string,
): Promise<void> {
  if (client === undefined || configured.clientId !== undefined) return;
  const uris = (client as { redirect_uris?: string[] }).redirect_uris ?? [];
  if (!uris.includes(redirectUrl)) await provider.invalidateCredentials('client');
}
