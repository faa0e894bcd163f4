/**
 * The two undici modules the transport loads instead of undici's entry (dispatchers.ts),
 * typed with undici's own declarations. Each is a CommonJS module whose `module.exports` is
 * the one value, which `import()` gives as `default`.
 */
declare module 'undici/lib/dispatcher/agent.js' {
  import type { Agent } from 'undici';
  const agent: typeof Agent;
  export default agent;
}

declare module 'undici/lib/api/api-request.js' {
  import type { Dispatcher } from 'undici';
  function request(
    this: Dispatcher,
    options: Dispatcher.RequestOptions,
  ): Promise<Dispatcher.ResponseData>;
  export default request;
}
