/**
 * undici and the process's one keep-alive Agent. undici is loaded with the first request sent
 * through the transport, not with this module: loading it costs tens of milliseconds, and a
 * process that sends nothing over HTTP (`sortie verify`, a replayed run) should not pay that.
 * This folder is the only place that imports undici (eslint.config.js).
 */
import type { Dispatcher } from 'undici';

/** Redirects followed before a request fails, as fetch counts them. */
export const MAX_REDIRECTS = 20;

/** The shared Agent, bare and with undici's redirect interceptor in front of it. */
export interface Dispatchers {
  /** Returns every response as it came (`redirect: 'manual'` and `'error'`). */
  direct: Dispatcher;
  /** Follows redirects (`redirect: 'follow'`, fetch's default). */
  following: Dispatcher;
}

let loaded: Dispatchers | undefined;
let loading: Promise<Dispatchers> | undefined;

/** The dispatchers once loaded; undefined before the first `loadDispatchers()` settles. */
export function loadedDispatchers(): Dispatchers | undefined {
  return loaded;
}

/**
 * Loads undici once per process and builds the Agent. Its idle sockets are unreferenced by
 * undici, so they never keep the process alive; they close after the server's keep-alive hint
 * (4 s when it gives none).
 */
export function loadDispatchers(): Promise<Dispatchers> {
  loading ??= import('undici').then(
    ({ Agent, interceptors }) => {
      const direct = new Agent();
      const following = direct.compose(interceptors.redirect({ maxRedirections: MAX_REDIRECTS }));
      loaded = { direct, following };
      return loaded;
    },
    (error: unknown) => {
      // A failed load is tried again by the next request rather than remembered.
      loading = undefined;
      throw error;
    },
  );
  return loading;
}
