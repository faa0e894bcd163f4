/**
 * The redirect target of a login (RFC 8252 loopback redirect): a server on 127.0.0.1 that
 * takes the one authorization response the browser brings back to `/callback`, checks its
 * `state`, and hands over the code. Only loopback: nothing else on the network can reach it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SortieError } from '../../../base/errors.ts';

/** The browser came back without a code: the person declined, or the server refused. */
export class LoginCallbackError extends SortieError {}

/** A listening callback server. */
export interface LoopbackCallback {
  /** `http://127.0.0.1:PORT/callback`. */
  redirectUrl: string;
  /** The code of the first response to `/callback` whose `state` is `state`. */
  code(state: string, signal: AbortSignal): Promise<string>;
  close(): Promise<void>;
}

const PAGE_DONE = 'sortie: the login is complete; you can close this tab.\n';
const PAGE_FAILED = 'sortie: the login did not complete; see the terminal.\n';

/** Listens on `port` (0: any free one; a busy port falls back to any free one). */
export async function startLoopbackCallback(port = 0): Promise<LoopbackCallback> {
  let deliver: (
    outcome: { code: string } | { error: string },
    state: string | null,
  ) => boolean = () => false;
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (request.method !== 'GET' || url.pathname !== '/callback') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    const { searchParams } = url;
    const code = searchParams.get('code');
    const error = searchParams.get('error');
    const outcome =
      code !== null
        ? { code }
        : {
            error: [error ?? 'no code', searchParams.get('error_description')]
              .filter((part) => part !== null && part !== '')
              .join(': '),
          };
    const taken = deliver(outcome, searchParams.get('state'));
    const ok = taken && code !== null;
    response
      .writeHead(taken ? 200 : 400, { 'content-type': 'text/plain; charset=utf-8' })
      .end(ok ? PAGE_DONE : PAGE_FAILED);
  });
  const address = await listen(server, port).catch(() => listen(server, 0));
  return {
    redirectUrl: `http://127.0.0.1:${address.port}/callback`,
    code: (state, signal) =>
      new Promise<string>((resolve, reject) => {
        const onAbort = (): void => reject(signal.reason);
        if (signal.aborted) return onAbort();
        signal.addEventListener('abort', onAbort, { once: true });
        deliver = (outcome, given) => {
          // A response of another attempt (or a forged one) is refused and the wait goes on.
          if (given !== state) return false;
          signal.removeEventListener('abort', onAbort);
          if ('code' in outcome) resolve(outcome.code);
          else reject(new LoginCallbackError(`the authorization server answered ${outcome.error}`));
          return true;
        };
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function listen(server: Server, port: number): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error): void => reject(error);
    server.once('error', onError);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', onError);
      resolve(server.address() as AddressInfo);
    });
  });
}
