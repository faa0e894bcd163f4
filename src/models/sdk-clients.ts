/**
 * Provider SDK clients shared within the process: one per provider, base URL, key and
 * timeout, so a client's headers, options and fetch wrapper are built once. None holds a socket
 * (all three SDKs send through `sdkFetch`, with one keep-alive Agent per process), so sharing
 * one is safe and there is nothing to close. What an SDK reads from the environment when it is
 * built (its base URL, organisation, headers) is part of the identity, so a process that
 * changes those variables between runs gets a new client; a client whose key the SDK would read
 * from the environment itself (no key configured) is not shared.
 */

/** At most this many clients are kept (a process talking to more drops the oldest first). */
export const MAX_SHARED_SDK_CLIENTS = 32;

const shared = new Map<string, unknown>();

/** What identifies one SDK client: the key is part of it, but never leaves this module. */
export interface SdkIdentity {
  provider: string;
  baseUrl: string | undefined;
  apiKey: string | undefined;
  timeoutMs?: number;
  /** Names of the environment variables the SDK reads when it is built. */
  environment: readonly string[];
}

/** The shared client for `identity`, made by `create` the first time. */
export function sharedSdk<Client>(identity: SdkIdentity, create: () => Client): Client {
  if (identity.apiKey === undefined) return create();
  const key = JSON.stringify([
    identity.provider,
    identity.baseUrl ?? null,
    identity.apiKey,
    identity.timeoutMs ?? null,
    identity.environment.map((name) => process.env[name] ?? null),
  ]);
  const existing = shared.get(key);
  if (existing !== undefined) return existing as Client;
  const client = create();
  if (shared.size >= MAX_SHARED_SDK_CLIENTS) shared.delete(shared.keys().next().value!);
  shared.set(key, client);
  return client;
}
