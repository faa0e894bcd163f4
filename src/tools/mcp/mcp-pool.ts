/**
 * The MCP servers of one run: one session per `mcp` block, started when first needed and
 * shared by every agent of the run (chained missions included), all closed when the run ends.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { SortieError } from '../../base/errors.ts';
import { didYouMean } from '../../base/suggest.ts';
import type { AgentTool } from '../builtins/agent-tool.ts';
import { mcpAgentTool } from './mcp-agent-tools.ts';
import { McpStartError, McpUnknownToolError } from './mcp-errors.ts';
import { McpServerSession } from './mcp-session.ts';
import type { McpServerSpec } from './mcp-spec.ts';
import type { AuthStore } from './oauth/auth-store.ts';

/** `mcp.SERVER.all` (no `tool`) or `mcp.SERVER.TOOL`; `where` (`file:line:col`) opens errors. */
export interface McpToolReference {
  server: string;
  tool?: string;
  where?: string;
}

export class McpPool {
  private readonly sessions = new Map<string, McpServerSession>();
  /** Agent tools by server, built once from the server's first tool list. */
  private readonly agentTools = new Map<string, Promise<Map<string, AgentTool>>>();

  /**
   * `servers`: each declared server's name and how to resolve its settings (called at its
   * first start); `cacheRoot`: where `source` servers are installed (`<state dir>/mcp`);
   * `authStore`: the OAuth logins of url servers (none: url servers get no OAuth).
   */
  constructor(
    servers: ReadonlyMap<string, () => McpServerSpec>,
    cacheRoot: string,
    authStore?: AuthStore,
  ) {
    for (const [name, resolve] of servers) {
      this.sessions.set(name, new McpServerSession(name, resolve, cacheRoot, authStore));
    }
  }

  /** A pool of servers whose settings are known already (tests, programmatic use). */
  static of(servers: readonly McpServerSpec[], cacheRoot: string, authStore?: AuthStore): McpPool {
    const resolvers = new Map(servers.map((spec) => [spec.name, () => spec]));
    return new McpPool(resolvers, cacheRoot, authStore);
  }

  /** True when the run has at least one `mcp` block. */
  get isEmpty(): boolean {
    return this.sessions.size === 0;
  }

  /**
   * Starts every server a reference names a specific tool of and checks that the server offers
   * it; throws one error listing every problem (a server that cannot start, a tool it lacks,
   * with a did-you-mean and the tools it does offer). Called before any model request.
   */
  async checkReferences(
    references: readonly McpToolReference[],
    signal: AbortSignal,
  ): Promise<void> {
    const named = references.filter((reference) => reference.tool !== undefined);
    const servers = [...new Set(named.map((reference) => reference.server))];
    const listed = await Promise.all(
      servers.map(async (server) => {
        try {
          return { server, tools: await this.session(server).tools(signal) };
        } catch (error) {
          if (signal.aborted || !(error instanceof McpStartError)) throw error;
          return { server, error };
        }
      }),
    );
    const problems: string[] = [];
    for (const entry of listed) if (entry.error !== undefined) problems.push(entry.error.message);
    for (const reference of named) {
      const tools = listed.find((entry) => entry.server === reference.server)?.tools;
      const tool = reference.tool as string;
      if (tools === undefined || tools.some((offered) => offered.name === tool)) continue;
      const names = tools.map((offered) => offered.name);
      const problem = new McpUnknownToolError(reference.server, tool, names);
      problems.push(
        reference.where === undefined ? problem.message : `${reference.where}: ${problem.message}`,
      );
    }
    if (problems.length > 0) throw new McpReferenceError([...new Set(problems)]);
  }

  /**
   * The agent tools the references give, in reference order (`all`: the server's listed order),
   * each once. Starts the servers not running yet; throws McpStartError when one cannot start.
   */
  async toolsFor(
    references: readonly McpToolReference[],
    signal: AbortSignal,
  ): Promise<AgentTool[]> {
    const tools: AgentTool[] = [];
    const seen = new Set<string>();
    for (const reference of references) {
      const byName = await this.agentToolsOf(reference.server, signal);
      const chosen =
        reference.tool === undefined ? [...byName.values()] : [byName.get(reference.tool)];
      for (const tool of chosen) {
        if (tool === undefined) {
          throw new McpUnknownToolError(reference.server, reference.tool as string, [
            ...byName.keys(),
          ]);
        }
        if (seen.has(tool.definition.name)) continue;
        seen.add(tool.definition.name);
        tools.push(tool);
      }
    }
    return tools;
  }

  /** The child process id of a running stdio server (diagnostics, tests). */
  pid(server: string): Promise<number | undefined> {
    return this.session(server).pid();
  }

  /** Stops every server; safe to call more than once. */
  async close(): Promise<void> {
    await Promise.all([...this.sessions.values()].map((session) => session.close()));
  }

  private agentToolsOf(server: string, signal: AbortSignal): Promise<Map<string, AgentTool>> {
    let tools = this.agentTools.get(server);
    if (tools === undefined) {
      const session = this.session(server);
      tools = session.tools(signal).then((listed: Tool[]) => {
        return new Map(listed.map((tool) => [tool.name, mcpAgentTool(session, tool)]));
      });
      // A failed or cancelled listing is not kept: the session remembers a final failure.
      tools.catch(() => this.agentTools.delete(server));
      this.agentTools.set(server, tools);
    }
    return tools;
  }

  private session(server: string): McpServerSession {
    const session = this.sessions.get(server);
    if (session === undefined) {
      const known = [...this.sessions.keys()];
      throw new McpStartError(server, `no such server is declared${didYouMean(server, known)}`);
    }
    return session;
  }
}

/** Every problem with the MCP tool references of a run, one per line. */
export class McpReferenceError extends SortieError {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
  }
}
