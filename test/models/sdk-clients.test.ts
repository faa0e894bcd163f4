import { afterEach, describe, expect, it } from 'vitest';
import {
  MAX_SHARED_SDK_CLIENTS,
  sharedSdk,
  type SdkIdentity,
} from '../../src/models/sdk-clients.ts';

const ENV = 'SORTIE_TEST_SDK_CLIENTS_BASE';

function identity(overrides: Partial<SdkIdentity> = {}): SdkIdentity {
  return {
    provider: 'openai',
    baseUrl: 'http://127.0.0.1:1/v1',
    apiKey: 'sk-test-shared-1',
    timeoutMs: 1000,
    environment: [ENV],
    ...overrides,
  };
}

/** A fresh object per call, so sharing shows as identity. */
const make = (): object => ({});

describe('sharedSdk', () => {
  afterEach(() => {
    delete process.env[ENV];
  });

  it('returns the same client for the same provider, base URL, key, timeout and environment', () => {
    const first = sharedSdk(identity({ apiKey: 'sk-test-same' }), make);
    expect(sharedSdk(identity({ apiKey: 'sk-test-same' }), make)).toBe(first);
  });

  it('builds a new client when the key, base URL, provider or timeout differs', () => {
    const first = sharedSdk(identity({ apiKey: 'sk-test-a' }), make);
    expect(sharedSdk(identity({ apiKey: 'sk-test-b' }), make)).not.toBe(first);
    expect(sharedSdk(identity({ apiKey: 'sk-test-a', baseUrl: 'http://other/v1' }), make)).not.toBe(
      first,
    );
    expect(sharedSdk(identity({ apiKey: 'sk-test-a', provider: 'ollama' }), make)).not.toBe(first);
    expect(sharedSdk(identity({ apiKey: 'sk-test-a', timeoutMs: 5 }), make)).not.toBe(first);
  });

  it('builds a new client when an environment variable the SDK reads has changed', () => {
    const before = sharedSdk(identity({ apiKey: 'sk-test-env' }), make);
    process.env[ENV] = 'http://elsewhere/v1';
    const after = sharedSdk(identity({ apiKey: 'sk-test-env' }), make);
    expect(after).not.toBe(before);
    expect(sharedSdk(identity({ apiKey: 'sk-test-env' }), make)).toBe(after);
  });

  it('never shares a client whose key the SDK reads from the environment', () => {
    const first = sharedSdk(identity({ apiKey: undefined }), make);
    expect(sharedSdk(identity({ apiKey: undefined }), make)).not.toBe(first);
  });

  it(`keeps at most ${MAX_SHARED_SDK_CLIENTS} clients, dropping the oldest first`, () => {
    const oldest = sharedSdk(identity({ apiKey: 'sk-test-oldest' }), make);
    for (let index = 0; index < MAX_SHARED_SDK_CLIENTS; index++)
      sharedSdk(identity({ apiKey: `sk-test-filler-${index}` }), make);
    expect(sharedSdk(identity({ apiKey: 'sk-test-oldest' }), make)).not.toBe(oldest);
  });
});
