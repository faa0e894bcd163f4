import { SortieError } from '../../base/errors.ts';
import { didYouMean } from '../../base/suggest.ts';
import { serverLabel } from './mcp-spec.ts';

/**
 * An MCP server could not be started, installed or reached: the message names the server
 * (`mcp "NAME": ...`) and says what to fix. It fails the run (servers checked at run start)
 * or the agent call that needed the server, never the process.
 */
export class McpStartError extends SortieError {
  constructor(
    readonly server: string,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(`${serverLabel(server)}: ${detail}`, options);
  }
}

/** A reference to a tool its server does not offer (`mcp.NAME.TOOL`), found when the run starts. */
export class McpUnknownToolError extends SortieError {
  constructor(
    readonly server: string,
    readonly tool: string,
    readonly offered: readonly string[],
  ) {
    const list = offered.length === 0 ? 'it offers no tools' : `it offers ${offered.join(', ')}`;
    super(`${serverLabel(server)} has no tool "${tool}"${didYouMean(tool, offered)}; ${list}`);
  }
}

/**
 * A remote server wants an OAuth login sortie does not have (none yet, one that expired and
 * could not be renewed, one without a scope the server asks for): a run cannot send anyone to
 * a browser, so the message names the command that logs in. The server's tools stop for the
 * rest of the run, as for any server that cannot be had.
 */
export class McpLoginRequiredError extends McpStartError {
  constructor(server: string, reason: string, options?: { cause?: unknown }) {
    super(server, `needs a login: ${reason}; run \`sortie mcp login ${server}\``, options);
  }
}

/**
 * sortie's refusal of a server's own request (sampling it may not do, content it cannot send):
 * the SDK answers the server with `code` and this message as they are, where an McpError
 * would send its message with an `MCP error N:` prefix the server adds again.
 */
export class McpRequestRefusedError extends SortieError {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}
