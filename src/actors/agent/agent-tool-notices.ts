/**
 * What an agent's tools say while they run (an MCP server's progress and log messages) as
 * events of the agent, with every secret value hidden as in tool results.
 */
import type { EventBus } from '../../runtime/event-bus.ts';
import type { ToolNotice } from '../../tools/builtins/agent-tool.ts';

/** Emits each notice of `actor`'s tools as an `mcp.progressed` or `mcp.logged` event. */
export function toolNoticeReporter(
  bus: EventBus,
  actor: string,
  redact: (text: string) => string,
): (notice: ToolNotice) => void {
  return (notice) => {
    if (notice.kind === 'progress') {
      bus.emit({
        type: 'mcp.progressed',
        actor,
        server: notice.server,
        callId: notice.callId,
        progress: notice.progress,
        total: notice.total,
        message: notice.message === null ? null : redact(notice.message),
      });
      return;
    }
    bus.emit({
      type: 'mcp.logged',
      actor,
      server: notice.server,
      level: notice.level,
      logger: notice.logger === null ? null : redact(notice.logger),
      text: redact(notice.text),
    });
  };
}
