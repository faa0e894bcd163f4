/**
 * Waiting for a served run's end on behalf of a tool call: each event the plain log would show
 * becomes a progress notification (only when the client asked for progress), and a cancelled
 * call cancels its run.
 */
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { eventLogText, type EventTextContext } from '../../present/event-text.ts';
import { noPaint } from '../../present/paint.ts';
import type { McpHostContext } from './host-context.ts';

/** What the SDK gives a tool's handler besides its arguments. */
export type ToolCallExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** The event table's context for a line without the plain log's running totals. */
const LINE_CONTEXT: EventTextContext = {
  paint: noPaint,
  itemCount: () => undefined,
  dependencies: () => [],
  runTotals: () => '',
};

/** Settles once the run has ended: undefined, or why it could not run. */
export async function followRun(
  host: McpHostContext,
  runId: string,
  extra: ToolCallExtra,
): Promise<string | undefined> {
  const cancel = (): void => void host.service.cancel(runId);
  extra.signal.addEventListener('abort', cancel, { once: true });
  try {
    const run = await host.service.started(runId);
    if (run === undefined) return `run ${runId} was dropped from its queue: the server stopped`;
    const token = extra._meta?.progressToken;
    let progress = 0;
    await new Promise<void>((resolve) => {
      if (!run.live) return resolve();
      const stop = run.listen((encoded) => {
        if (encoded === 'end') {
          stop();
          return resolve();
        }
        if (token === undefined) return;
        // The run tells its listeners right after it keeps the event: the last one is this one.
        const event = run.events.at(-1);
        if (event === undefined) return;
        const text = eventLogText(event, LINE_CONTEXT);
        if (text === undefined) return;
        progress += 1;
        void extra
          .sendNotification({
            method: 'notifications/progress',
            params: { progressToken: token, progress, message: `${event.actor}  ${text}` },
          })
          .catch(() => undefined);
      });
    });
    return run.failure;
  } finally {
    extra.signal.removeEventListener('abort', cancel);
  }
}
