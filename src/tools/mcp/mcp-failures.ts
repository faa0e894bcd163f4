/** What went wrong with an MCP server, as one sentence a person (or a model) can act on. */
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { OAuthError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { McpEndpoint } from './mcp-connect.ts';
import { McpLoginRequiredError, McpStartError } from './mcp-errors.ts';
import { reasonOf } from '../../base/reason.ts';

/** Why a server could not be started or reached. */
export function startFailure(
  server: string,
  endpoint: McpEndpoint,
  error: unknown,
  stderr: string,
): McpStartError {
  const login = endpoint.kind === 'http' ? loginFailure(server, error) : undefined;
  if (login !== undefined) return login;
  return new McpStartError(server, startDetail(server, endpoint, error, stderr), { cause: error });
}

/**
 * The error as a missing login, when it is one: sortie's own, the authorization server's
 * refusal (a client-credentials grant refused, a renewal refused), or the SDK's.
 */
export function loginFailure(server: string, error: unknown): McpLoginRequiredError | undefined {
  if (error instanceof McpLoginRequiredError) return error;
  if (error instanceof OAuthError) {
    const said = error.message === '' ? '' : `: ${error.message}`;
    const reason = `the authorization server refused a token (${error.errorCode}${said})`;
    return new McpLoginRequiredError(server, reason, { cause: error });
  }
  if (error instanceof UnauthorizedError) {
    return new McpLoginRequiredError(server, 'the server refused the stored one', { cause: error });
  }
  return undefined;
}

function startDetail(
  server: string,
  endpoint: McpEndpoint,
  error: unknown,
  stderr: string,
): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (endpoint.kind === 'stdio') {
    if (code === 'ENOENT') {
      return `command "${endpoint.command}" was not found: give a program on PATH or a path to one`;
    }
    if (code === 'EACCES') return `command "${endpoint.command}" is not executable`;
    const said = lastLines(stderr);
    const tail = said === '' ? '' : `; it wrote: ${said}`;
    if (isConnectionClosed(error)) return `the server exited before it was ready${tail}`;
    if (isTimeout(error)) return `the server did not answer within 30 s${tail}`;
    return `the server failed to start: ${reasonOf(error)}${tail}`;
  }
  const status = httpStatus(error);
  if (status === 401 || status === 403) return authorizationDetail(server, endpoint.url, status);
  if (status !== undefined) {
    return `the server at ${endpoint.url} answered HTTP ${status}: ${reasonOf(error)}`;
  }
  if (isTimeout(error)) return `the server at ${endpoint.url} did not answer within 30 s`;
  return `could not connect to ${endpoint.url}: ${networkReason(error)}`;
}

/** A refusal that no OAuth login fixed: a token in `headers`, or a login, may. */
function authorizationDetail(server: string, url: string, status: number): string {
  return (
    `the server at ${url} refused the request (HTTP ${status}): log in with \`sortie mcp login ${server}\`, ` +
    'or give a token in headers, e.g. headers = { Authorization = "Bearer ${vars.token}" } with ' +
    'a secret variable'
  );
}

/** Why a call failed in transport (the server died, the connection dropped). */
export function callFailureDetail(error: unknown): string {
  if (isConnectionClosed(error)) return 'the server stopped during the call';
  if (isTimeout(error)) return 'the server did not answer in time';
  const status = httpStatus(error);
  if (status !== undefined) return `the server answered HTTP ${status}: ${reasonOf(error)}`;
  return networkReason(error);
}

export function isConnectionClosed(error: unknown): boolean {
  return error instanceof McpError && error.code === Number(ErrorCode.ConnectionClosed);
}

export function isTimeout(error: unknown): boolean {
  return error instanceof McpError && error.code === Number(ErrorCode.RequestTimeout);
}

function httpStatus(error: unknown): number | undefined {
  if (error instanceof StreamableHTTPError || error instanceof SseError) return error.code;
  return undefined;
}

/** fetch's "fetch failed" says nothing; its cause (ECONNREFUSED …) does. */
function networkReason(error: unknown): string {
  const cause = error instanceof Error ? (error.cause as Error | undefined) : undefined;
  if (cause instanceof Error && cause.message !== '') return cause.message;
  return reasonOf(error);
}

/** The last non-empty lines of a server's stderr, joined, at most 300 characters. */
function lastLines(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  return lines.slice(-3).join(' | ').slice(-300);
}
