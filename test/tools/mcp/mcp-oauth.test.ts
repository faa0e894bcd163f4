/**
 * OAuth for url servers (issue 29 item 1) against an authorization server and a resource
 * server built with the SDK's server-side auth helpers over loopback HTTP: the login (the
 * browser step is a GET that follows the authorization URL), then a run's pool using it.
 */
import { stat } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AuthStore,
  loginToServer,
  McpPool,
  McpStartError,
  type LoginOutcome,
} from '../../../src/tools/mcp/index.ts';
import type { ConfiguredClient } from '../../../src/tools/mcp/oauth/stored-provider.ts';
import {
  followAuthorization,
  startOAuthServers,
  type OAuthServerOptions,
  type OAuthServers,
} from '../../fixtures/mcp/oauth-servers.mjs';
import { startStreamableServer } from '../../fixtures/mcp/http-servers.ts';
import { cleanUp, onCleanUp } from './mcp-harness.ts';
import { temporaryDirectory } from '../../helpers/temp-dir.ts';

afterEach(cleanUp);

const signal = new AbortController().signal;
const LOGIN = 'run `sortie mcp login docs`';

async function servers(options: OAuthServerOptions = {}): Promise<OAuthServers> {
  const started = await startOAuthServers(options);
  onCleanUp(() => started.close());
  return started;
}

async function store(): Promise<AuthStore> {
  return new AuthStore(`${await temporaryDirectory('mcp-auth')}/mcp-auth`);
}

/** Logs in as `sortie mcp login` does; the URLs the "browser" was sent to are collected. */
async function login(
  at: OAuthServers,
  auth: AuthStore,
  configured: ConfiguredClient = {},
  opened: URL[] = [],
): Promise<LoginOutcome> {
  return loginToServer({
    server: 'docs',
    url: at.url,
    headers: {},
    configured,
    store: auth,
    signal,
    openAuthorization: async (url) => {
      opened.push(url);
      await followAuthorization(url.href);
    },
  });
}

/** Calls one tool of the server `docs` through a run's pool; the result's text or error. */
async function callTool(
  pool: McpPool,
  tool: string,
  args: Record<string, unknown> = {},
): Promise<string> {
  const tools = await pool.toolsFor([{ server: 'docs' }], signal);
  const found = tools.find((candidate) => candidate.definition.name === `mcp_docs_${tool}`);
  const outcome = await found!.execute(args, { signal });
  return typeof outcome.content === 'string' ? outcome.content : JSON.stringify(outcome.content);
}

function runPool(at: OAuthServers, auth: AuthStore, oauth: ConfiguredClient = {}): McpPool {
  const pool = McpPool.of(
    [{ kind: 'url', name: 'docs', url: at.url, headers: {}, oauth }],
    '/nonexistent',
    auth,
  );
  onCleanUp(() => pool.close());
  return pool;
}

function errorOf(message: string): string {
  return JSON.stringify({ status: 'error', error: message });
}

describe('mcp login', () => {
  it('discovers from the challenge, registers, authorizes with PKCE and a resource, and stores the login 0600', async () => {
    const at = await servers();
    const auth = await store();
    const opened: URL[] = [];
    expect(await login(at, auth, {}, opened)).toEqual({
      status: 'logged-in',
      tools: 3,
      scope: 'mcp:tools',
      expiresAt: expect.any(Number) as number,
    });
    const [registered] = at.registrations;
    expect(at.registrations).toHaveLength(1);
    expect(registered).toMatchObject({
      client_name: 'sortie',
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
    });
    const [url] = opened;
    expect(opened).toHaveLength(1);
    expect(url!.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url!.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url!.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(at.authorizations).toEqual([
      { clientId: registered!.client_id, scopes: ['mcp:tools'], resource: at.url },
    ]);
    expect(at.tokenRequests).toEqual([
      {
        grant: 'authorization_code',
        method: 'none',
        clientId: registered!.client_id,
        resource: at.url,
      },
    ]);
    expect(at.metadataRequests).toEqual(['/.well-known/oauth-authorization-server']);
    const file = auth.fileOf(at.url);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(auth.directory)).mode & 0o777).toBe(0o700);
    const pool = runPool(at, auth);
    expect(await callTool(pool, 'whoami')).toBe(`client ${registered!.client_id} with mcp:tools`);
    // A tool that echoes the token gives the model a mask.
    expect(await callTool(pool, 'token')).toBe('••••');
  });

  it('finds the servers through the well-known paths and OpenID discovery when the challenge names none', async () => {
    const at = await servers({ challengeResourceMetadata: false, discovery: 'oidc' });
    const auth = await store();
    expect((await login(at, auth)).status).toBe('logged-in');
    expect(at.metadataRequests).toEqual(['/.well-known/openid-configuration']);
    expect(at.authorizations[0]?.resource).toBe(at.url);
  });

  it.each(['client_secret_basic', 'client_secret_post', 'none'] as const)(
    'uses a pre-registered client with the %s token endpoint method',
    async (method) => {
      const at = await servers({ authMethods: [method], registration: false });
      const secret = method === 'none' ? undefined : 'app-secret-77';
      at.preRegister({ client_id: 'sortie-app', ...(secret ? { client_secret: secret } : {}) });
      const auth = await store();
      const configured = { clientId: 'sortie-app', ...(secret ? { clientSecret: secret } : {}) };
      expect((await login(at, auth, configured)).status).toBe('logged-in');
      expect(at.registrations).toEqual([]);
      expect(
        at.tokenRequests.map((request) => [request.grant, request.method, request.clientId]),
      ).toEqual([['authorization_code', method, 'sortie-app']]);
      expect(await callTool(runPool(at, auth, configured), 'whoami')).toBe(
        'client sortie-app with mcp:tools',
      );
    },
  );

  it('uses a Client ID Metadata Document instead of registering when the server supports one', async () => {
    const document = 'https://sortie.example/oauth/client.json';
    const at = await servers({
      clientIdMetadataDocuments: true,
      documents: {
        [document]: { client_id: document, redirect_uris: ['http://127.0.0.1/callback'] },
      },
    });
    const auth = await store();
    expect((await login(at, auth, { clientMetadataUrl: document })).status).toBe('logged-in');
    expect(at.registrations).toEqual([]);
    expect(at.authorizations.map((entry) => entry.clientId)).toEqual([document]);
  });

  it('says so when the server needs no login', async () => {
    const open = await startStreamableServer();
    onCleanUp(() => open.close());
    const auth = await store();
    const outcome = await loginToServer({
      server: 'docs',
      url: open.url,
      headers: {},
      configured: {},
      store: auth,
      signal,
      openAuthorization: () => Promise.reject(new Error('no browser expected')),
    });
    expect(outcome).toEqual({ status: 'not-needed', tools: 9 });
    expect(await auth.all()).toEqual([]);
  });

  it('authorizes afresh when a login is stored, reusing the registered client', async () => {
    const at = await servers();
    const auth = await store();
    await login(at, auth);
    expect((await login(at, auth)).status).toBe('logged-in');
    expect(at.authorizations).toHaveLength(2);
    expect(at.registrations).toHaveLength(1);
  });
});

describe('a run with OAuth', () => {
  it('refuses to start a server without a login, naming the command, and registers nothing', async () => {
    const at = await servers();
    const pool = runPool(at, await store());
    const failure = await pool
      .toolsFor([{ server: 'docs' }], signal)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(McpStartError);
    expect((failure as Error).message).toBe(`mcp "docs": needs a login: none is stored; ${LOGIN}`);
    expect(at.registrations).toEqual([]);
  });

  it('renews an expired token with the refresh token and keeps going', async () => {
    const at = await servers({ accessSeconds: 60 });
    const auth = await store();
    await login(at, auth);
    const first = (await auth.read(at.url))?.tokens?.access_token;
    const pool = runPool(at, auth);
    expect(await callTool(pool, 'whoami')).toMatch(/^client .* with mcp:tools$/);
    at.clock.now += 61_000;
    expect(await callTool(pool, 'whoami')).toMatch(/^client .* with mcp:tools$/);
    expect(at.tokenRequests.map((request) => request.grant)).toEqual([
      'authorization_code',
      'refresh_token',
    ]);
    const renewed = (await auth.read(at.url))?.tokens?.access_token;
    expect(renewed).not.toBe(first);
    expect(at.resourceRequests.at(-1)).toBe(renewed);
  });

  it('stops the server on insufficient_scope, and the next login asks for the wider scope', async () => {
    const at = await servers();
    const auth = await store();
    await login(at, auth);
    const pool = runPool(at, auth);
    const refused = errorOf(
      `mcp "docs": needs a login: it asks for the scope "mcp:tools mcp:admin", which the stored one lacks; ${LOGIN}`,
    );
    expect(await callTool(pool, 'admin', { task: 'reindex' })).toBe(refused);
    const requests = at.resourceRequests.length;
    expect(await callTool(pool, 'whoami')).toBe(refused);
    expect(at.resourceRequests).toHaveLength(requests);
    expect((await auth.read(at.url))?.scopeNeeded).toBe('mcp:tools mcp:admin');
    await login(at, auth);
    expect(at.authorizations.at(-1)?.scopes).toEqual(['mcp:tools', 'mcp:admin']);
    expect((await auth.read(at.url))?.scopeNeeded).toBeUndefined();
    expect(await callTool(runPool(at, auth), 'admin', { task: 'reindex' })).toBe(
      'admin did reindex',
    );
  });

  it('reports a revoked login that cannot be renewed', async () => {
    const at = await servers();
    const auth = await store();
    await login(at, auth);
    const pool = runPool(at, auth);
    expect(await callTool(pool, 'whoami')).toMatch(/^client /);
    at.revokeAll();
    expect(await callTool(pool, 'whoami')).toBe(
      errorOf(
        `mcp "docs": needs a login: the stored one was refused and could not be renewed; ${LOGIN}`,
      ),
    );
    expect(at.tokenRequests.at(-1)?.grant).toBe('refresh_token');
  });

  it('takes a token with the client-credentials grant when the block gives a client id and secret', async () => {
    const at = await servers({
      clientCredentials: true,
      registration: false,
      authMethods: ['client_secret_basic'],
    });
    at.preRegister({ client_id: 'worker-7', client_secret: 'worker-secret-7' });
    const auth = await store();
    const pool = runPool(at, auth, { clientId: 'worker-7', clientSecret: 'worker-secret-7' });
    expect(await callTool(pool, 'whoami')).toBe('client worker-7 with mcp:tools mcp:admin');
    expect(at.tokenRequests).toEqual([
      {
        grant: 'client_credentials',
        method: 'client_secret_basic',
        clientId: 'worker-7',
        resource: at.url,
      },
    ]);
    // The authorization server is pinned for later runs; no token is written.
    const record = await auth.read(at.url);
    expect(record?.discovery?.authorizationServerUrl).toBe(at.issuer);
    expect(record?.tokens).toBeUndefined();
  });

  it('reports a refused client-credentials grant as a missing login', async () => {
    const at = await servers({ registration: false });
    at.preRegister({ client_id: 'worker-7', client_secret: 'worker-secret-7' });
    const pool = runPool(at, await store(), {
      clientId: 'worker-7',
      clientSecret: 'worker-secret-7',
    });
    const failure = await pool
      .toolsFor([{ server: 'docs' }], signal)
      .catch((error: unknown) => error);
    expect((failure as Error).message).toBe(
      `mcp "docs": needs a login: the authorization server refused a token (unauthorized_client: no client credentials grant); ${LOGIN}`,
    );
  });
});
