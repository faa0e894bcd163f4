/**
 * The SDK's OAuthClientProvider over sortie's auth files: the SDK's `auth()` runs discovery,
 * registration, PKCE, the token requests and refresh; this class only keeps what it hands
 * over. In a login it sends the person to the authorization URL; in a run, where nobody can
 * follow a URL, any step that would need one throws McpLoginRequiredError instead.
 */
import { randomBytes } from 'node:crypto';
import type {
  OAuthClientProvider,
  OAuthDiscoveryState,
} from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { McpLoginRequiredError } from '../mcp-errors.ts';
import type { AuthStore, StoredAuth } from './auth-store.ts';

/** A client registered outside sortie, from the `mcp` block. */
export interface ConfiguredClient {
  clientId?: string;
  clientSecret?: string;
  /** The HTTPS URL of a Client ID Metadata Document the user publishes for sortie. */
  clientMetadataUrl?: string;
}

/** What a login adds: where the browser comes back to, and how it is sent off. */
export interface LoginHooks {
  redirectUrl: string;
  openAuthorization(url: URL): void | Promise<void>;
}

/** The redirect a run's provider names when nothing is stored: never followed in a run. */
const RUN_REDIRECT = 'http://127.0.0.1/callback';

export class StoredOAuthProvider implements OAuthClientProvider {
  private verifier: string | undefined;
  /** A login starts afresh: only the tokens it receives itself are offered. */
  private loginTokens: OAuthTokens | undefined;
  /** A login was stored when the provider opened (a refused one is forgotten on the way). */
  private readonly hadLogin: boolean;
  /** The `state` of the authorization request under way (a login checks it on the callback). */
  readonly expectedState = randomBytes(16).toString('hex');

  private constructor(
    private readonly server: string,
    private readonly serverUrl: string,
    private readonly store: AuthStore,
    private record: StoredAuth,
    private readonly configured: ConfiguredClient,
    private readonly login: LoginHooks | undefined,
  ) {
    this.hadLogin = record.tokens !== undefined;
  }

  /** A provider with the URL's stored record loaded (`login` given: an interactive login). */
  static async open(options: {
    server: string;
    serverUrl: string;
    store: AuthStore;
    configured: ConfiguredClient;
    login?: LoginHooks;
  }): Promise<StoredOAuthProvider> {
    const { server, serverUrl, store } = options;
    const record = (await store.read(serverUrl)) ?? { serverUrl, server };
    return new StoredOAuthProvider(
      server,
      serverUrl,
      store,
      record,
      options.configured,
      options.login,
    );
  }

  get redirectUrl(): string {
    if (this.login !== undefined) return this.login.redirectUrl;
    const registered = this.record.client as { redirect_uris?: string[] } | undefined;
    return registered?.redirect_uris?.[0] ?? RUN_REDIRECT;
  }

  get clientMetadataUrl(): string | undefined {
    return this.configured.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const confidential = this.configured.clientSecret !== undefined;
    return {
      client_name: 'sortie',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: confidential ? 'client_secret_basic' : 'none',
      ...(this.record.scopeNeeded !== undefined ? { scope: this.record.scopeNeeded } : {}),
    };
  }

  state(): string {
    return this.expectedState;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    // A run never registers a client: without a login there is nothing it could do with one.
    if (this.login === undefined && !this.hadLogin) {
      throw new McpLoginRequiredError(this.server, 'none is stored');
    }
    const { clientId, clientSecret } = this.configured;
    if (clientId === undefined) return this.record.client;
    const stored = this.record.client;
    // The SDK stamps the client with the authorization server it was used with: keep the stamp.
    const issuer = stored?.client_id === clientId ? stored.issuer : undefined;
    return {
      client_id: clientId,
      ...(clientSecret !== undefined ? { client_secret: clientSecret } : {}),
      ...(issuer !== undefined ? { issuer } : {}),
    };
  }

  async saveClientInformation(client: OAuthClientInformationMixed): Promise<void> {
    await this.change((record) => ({ ...record, client }));
  }

  tokens(): OAuthTokens | undefined {
    return this.login === undefined ? this.record.tokens : this.loginTokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    this.loginTokens = tokens;
    await this.change((record) => {
      const next: StoredAuth = { ...record, tokens, obtainedAt: this.store.now() };
      // A login asked for the scope a server wanted; a refresh in a run did not.
      if (this.login !== undefined) delete next.scopeNeeded;
      return next;
    });
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    if (this.login === undefined) {
      throw new McpLoginRequiredError(
        this.server,
        this.hadLogin ? 'the stored one was refused and could not be renewed' : 'none is stored',
      );
    }
    await this.login.openAuthorization(authorizationUrl);
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (this.verifier === undefined) throw new Error('no authorization is under way');
    return this.verifier;
  }

  async invalidateCredentials(
    scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery',
  ): Promise<void> {
    if (scope === 'verifier') {
      this.verifier = undefined;
      return;
    }
    await this.change((record) => {
      const next = { ...record };
      if (scope === 'all' || scope === 'client') delete next.client;
      if (scope === 'all' || scope === 'tokens') {
        delete next.tokens;
        delete next.obtainedAt;
      }
      if (scope === 'all' || scope === 'discovery') delete next.discovery;
      return next;
    });
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    await this.change((record) => ({ ...record, discovery: state }));
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.record.discovery;
  }

  private async change(edit: (record: StoredAuth) => StoredAuth): Promise<void> {
    // What this provider holds is what it was handed last: it replaces the file's record.
    this.record = await this.store.update(this.serverUrl, this.server, () => edit(this.record));
  }
}
