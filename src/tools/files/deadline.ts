/**
 * A deadline for every file tool call: a slot on a stalled network drive (or any file system
 * call that never returns) must not hold an agent for ever. When it passes, the model gets an
 * error result it can act on and the call's signal aborts, so a walk stops between files.
 */
import { followSignal, systemTimers, type Timers } from '../../base/abort.ts';
import type { AgentTool, ToolOutcome } from '../builtins/agent-tool.ts';
import { errorOutcome } from '../builtins/agent-tool.ts';

/** How long one file tool call may take. */
export const FILE_TOOL_DEADLINE_MS = 60_000;

/** The tool, answering with an error result once a call has taken `deadlineMs`. */
export function withDeadline(
  tool: AgentTool,
  deadlineMs: number = FILE_TOOL_DEADLINE_MS,
  timers: Timers = systemTimers,
): AgentTool {
  const name = tool.definition.name;
  const passed = errorOutcome(
    `${name} did not finish within ${deadlineMs / 1000} s (the file system did not answer): try another file or a narrower path`,
  );
  return {
    ...tool,
    async execute(args, context) {
      const own = new AbortController();
      const release = followSignal(context.signal, own);
      let timer: unknown;
      const deadline = new Promise<ToolOutcome>((resolve) => {
        timer = timers.setTimeout(() => {
          own.abort(new DOMException(`${name} passed its deadline`, 'TimeoutError'));
          resolve(passed);
        }, deadlineMs);
      });
      try {
        return await Promise.race([
          tool.execute(args, { ...context, signal: own.signal }),
          deadline,
        ]);
      } catch (error) {
        // The tool gave up on the deadline's abort: the deadline's answer, not its rejection.
        if (own.signal.aborted && !context.signal.aborted) return passed;
        throw error;
      } finally {
        timers.clearTimeout(timer);
        release();
      }
    },
  };
}
