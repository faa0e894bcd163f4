/**
 * undici and the process's one keep-alive Agent. undici is loaded with the first request sent
 * through the transport, not with this module: a process that sends nothing over HTTP
 * (`sortie verify`, a replayed run) should not pay for it. This folder is the only place that
 * imports undici (eslint.config.js).
 */
import type { Agent, Dispatcher } from 'undici';

/** undici's `request()`: sends `options` through `dispatcher`. */
type RequestFunction = (
  dispatcher: Dispatcher,
  options: Dispatcher.RequestOptions,
) => Promise<Dispatcher.ResponseData>;

/** The shared Agent and undici's `request()`. */
export interface Dispatchers {
  agent: Dispatcher;
  request: RequestFunction;
  /** Which of undici's modules were loaded: the two the transport uses, or its entry. */
  loadedFrom: 'parts' | 'entry';
}

interface UndiciParts {
  Agent: typeof Agent;
  request: RequestFunction;
  loadedFrom: Dispatchers['loadedFrom'];
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
  loading ??= loadUndici().then(
    ({ Agent, request, loadedFrom }) => {
      loaded = { agent: new Agent(), request, loadedFrom };
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

/**
 * undici's entry loads all it offers (fetch, WebSocket, caches, cookies, mocks), far more than
 * the two modules the transport uses take to load (bench/README.md) on a process's
 * first request. undici has no `exports` map, so those paths are reachable,
 * and the version is pinned (~7.30.2); were they to move, the entry is loaded instead (a test
 * checks which one was).
 */
async function loadUndici(): Promise<UndiciParts> {
  try {
    const [agent, request] = await Promise.all([
      import('undici/lib/dispatcher/agent.js'),
      import('undici/lib/api/api-request.js'),
    ]);
    return {
      Agent: agent.default,
      request: (dispatcher, options) => request.default.call(dispatcher, options),
      loadedFrom: 'parts',
    };
  } catch {
    const undici = await import('undici');
    return {
      Agent: undici.Agent,
      request: (dispatcher, options) => dispatcher.request(options),
      loadedFrom: 'entry',
    };
  }
}
