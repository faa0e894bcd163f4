/**
 * One MCP server during one run: started when first needed (installed first for `source`),
 * shared by every caller, restarted once after it dies, closed when the run ends.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { withOwnSignal } from '../../base/abort.ts';
import { openConnection, type McpConnection, type McpEndpoint } from './mcp-connect.ts';
import { McpStartError } from './mcp-errors.ts';
import { callFailureDetail, isConnectionClosed, isTimeout, loginFailure } from './mcp-failures.ts';
import { installGithubRelease } from './github-install.ts';
import { installNpmPackage } from './npm-install.ts';
import type { McpServerSpec } from './mcp-spec.ts';
import type { AuthStore } from './oauth/auth-store.ts';
import { runAuth, type RunAuth } from './oauth/run-auth.ts';
import { McpCallers, type CallOrigin } from './mcp-callers.ts';
import { reasonOf } from '../../base/reason.ts';
import { createRedactor } from '../../base/redact.ts';

/**
 * How long one tool call may run without news; a progress notification from the server
 * starts the wait again. A server silent for longer is treated as hung and restarted.
 */
export const CALL_TIMEOUT_MS = 300_000;

/** A call's result, or why the server could not give one (the model reads it). */
export type McpCallResult = { ok: true; result: CallToolResult } | { ok: false; error: string };

export class McpServerSession {
  private connection: Promise<McpConnection> | undefined;
  /** The tool list of the first start: what the model is offered for the whole run. */
  private firstTools: Tool[] | undefined;
  /** Set when the server cannot be had (start failed, or its one restart failed). */
  private failure: McpStartError | undefined;
  /** The connection died: the next call restarts it, once. */
  private restartPending = false;
  private closing = false;
  /** The agents calling the server now: its questions and sampling go to them. */
  private readonly callers: McpCallers;
  /** The block's `sampling = true`, known once its settings are read at the first start. */
  private samplingAllowed = false;
  /** The OAuth side of the live url connection, whose tokens are masked in results. */
  private auth: RunAuth | undefined;

  /**
   * `resolve` gives the server's settings with variables read; it runs at the first start, so
   * a server no agent uses never needs its variables. It throws McpStartError when it cannot.
   */
  constructor(
    readonly name: string,
    private readonly resolve: () => McpServerSpec,
    private readonly cacheRoot: string,
    /** The auth files of OAuth logins; without them a url server gets no OAuth. */
    private readonly authStore?: AuthStore,
  ) {
    this.callers = new McpCallers(name, (text) => createRedactor(this.tokenValues())(text));
  }

  /** The OAuth tokens the connection uses (none without OAuth), to mask in tool results. */
  tokenValues(): string[] {
    return this.auth?.tokenValues() ?? [];
  }

  /** The server's tools as it listed them when it first started; starts it if needed. */
  async tools(signal: AbortSignal): Promise<Tool[]> {
    await this.live(signal);
    return this.firstTools ?? [];
  }

  /** The running child's process id (stdio servers), for diagnostics and tests. */
  async pid(): Promise<number | undefined> {
    return (await this.connection?.catch(() => undefined))?.pid;
  }

  /** Calls a tool; a transport failure is a result (the server restarts on the next call). */
  async call(
    tool: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    origin?: CallOrigin,
  ): Promise<McpCallResult> {
    if (origin === undefined) return this.callOnce(tool, args, signal);
    return this.callers.during(origin, signal, () => this.callOnce(tool, args, signal, origin));
  }

  private async callOnce(
    tool: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    origin?: CallOrigin,
  ): Promise<McpCallResult> {
    let connection: McpConnection;
    try {
      connection = await this.live(signal);
    } catch (error) {
      if (signal.aborted || !(error instanceof McpStartError)) throw error;
      return { ok: false, error: error.message };
    }
    try {
      // The SDK adds an abort listener per request and keeps it: it gets a signal per call.
      const result = (await withOwnSignal(signal, (own) =>
        connection.client.callTool({ name: tool, arguments: args }, undefined, {
          signal: own,
          timeout: CALL_TIMEOUT_MS,
          resetTimeoutOnProgress: true,
          // Asking for progress is what lets a server's progress restart the wait.
          onprogress: (progress) => {
            if (origin !== undefined) this.callers.progress(origin, progress);
          },
        }),
      )) as CallToolResult;
      return { ok: true, result };
    } catch (error) {
      if (signal.aborted) throw error;
      const login = loginFailure(this.name, error);
      if (login !== undefined) {
        // Final for the run: every later call gets the same answer without asking the server.
        this.failure = login;
        await this.dropConnection(connection);
        return { ok: false, error: login.message };
      }
      if (error instanceof McpError && !isConnectionClosed(error) && !isTimeout(error)) {
        // The server answered with a protocol error (unknown tool, bad arguments): it lives on.
        return { ok: false, error: `tool "${tool}" failed: ${error.message}` };
      }
      const said = connection.stderrTail().trim().split('\n').at(-1)?.trim() ?? '';
      await this.dropConnection(connection);
      const detail = callFailureDetail(error);
      const wrote = said === '' ? '' : ` (it wrote: ${said.slice(-300)})`;
      return {
        ok: false,
        error:
          `mcp "${this.name}": ${detail}${wrote}; the call may or may not have taken ` +
          'effect. The server is restarted for the next call.',
      };
    }
  }

  /** Stops the server (a child is ended: stdin closed, then SIGTERM, then SIGKILL). */
  async close(): Promise<void> {
    this.closing = true;
    const connection = await this.connection?.catch(() => undefined);
    this.connection = undefined;
    await connection?.close().catch(() => undefined);
  }

  /** The live connection: started on first use, restarted once after a death. */
  private live(signal: AbortSignal): Promise<McpConnection> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    if (this.closing) return Promise.reject(new McpStartError(this.name, 'the run has ended'));
    if (this.connection === undefined) {
      const restarting = this.restartPending;
      this.restartPending = false;
      const starting = this.start(signal);
      this.connection = starting;
      starting.then(
        (connection) => this.watch(connection),
        (error: unknown) => {
          if (this.connection === starting) this.connection = undefined;
          // A cancelled start may be tried again; a failed one is final for the run.
          if (signal.aborted || !(error instanceof McpStartError)) return;
          this.failure = restarting
            ? new McpStartError(this.name, `could not be restarted: ${error.message}`)
            : error;
        },
      );
    }
    return this.connection;
  }

  private async start(signal: AbortSignal): Promise<McpConnection> {
    const endpoint = await this.endpoint(signal);
    const connection = await openConnection(this.name, endpoint, signal, {
      elicit: (params, asked) => this.callers.elicit(params, asked),
      sampling: this.samplingAllowed,
      sample: (params, asked) => this.callers.sample(params, asked, this.samplingAllowed),
      log: (params) => this.callers.log(params),
    });
    this.firstTools ??= connection.tools;
    if (this.closing) {
      await connection.close();
      throw new McpStartError(this.name, 'the run has ended');
    }
    return connection;
  }

  /** A server that ends by itself (a crash between calls) is restarted on the next call. */
  private watch(connection: McpConnection): void {
    void connection.ended.then(async () => {
      if (this.closing) return;
      if ((await this.connection?.catch(() => undefined)) !== connection) return;
      this.connection = undefined;
      this.restartPending = true;
    });
  }

  private async dropConnection(connection: McpConnection): Promise<void> {
    if ((await this.connection?.catch(() => undefined)) === connection) {
      this.connection = undefined;
      this.restartPending = true;
    }
    // A hung server is still running: end it before its replacement starts.
    await connection.close().catch(() => undefined);
  }

  private async endpoint(signal: AbortSignal): Promise<McpEndpoint> {
    let spec: McpServerSpec;
    try {
      spec = this.resolve();
      this.samplingAllowed = spec.sampling === true;
    } catch (error) {
      if (error instanceof McpStartError) throw error;
      throw new McpStartError(this.name, reasonOf(error));
    }
    switch (spec.kind) {
      case 'command':
        return {
          kind: 'stdio',
          command: spec.command,
          args: spec.args,
          env: spec.env,
          ...(spec.cwd !== undefined ? { cwd: spec.cwd } : {}),
        };
      case 'npm': {
        const installed = await installNpmPackage(spec, this.cacheRoot, signal);
        return {
          kind: 'stdio',
          command: process.execPath,
          args: [installed.entry, ...spec.args],
          env: spec.env,
        };
      }
      case 'github': {
        const installed = await installGithubRelease(spec, this.cacheRoot, signal);
        return { kind: 'stdio', command: installed.entry, args: spec.args, env: spec.env };
      }
      case 'url': {
        if (this.authStore === undefined) {
          return { kind: 'http', url: spec.url, headers: spec.headers };
        }
        this.auth = await runAuth({
          server: spec.name,
          serverUrl: spec.url,
          store: this.authStore,
          configured: spec.oauth ?? {},
        });
        return { kind: 'http', url: spec.url, headers: spec.headers, auth: this.auth };
      }
    }
  }
}
