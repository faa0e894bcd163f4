/**
 * A commander's context cut (`pruning`, `compaction`): the cut of context-window.ts, with the
 * commander's state — its plan, its dataset progress, its accepted outputs — in the summary,
 * because the turns that set them up may be the ones dropped.
 */
import { contextCutDue, planContextCut, type ContextCut } from '../runtime/context-window.ts';
import type { CommanderContext } from './commander-context.ts';

/** Whether the commander's conversation must be cut before its next request. */
export function contextCutDueOf(context: CommanderContext): boolean {
  const { limits, lastReply } = context;
  return contextCutDue(context.messages, limits.context, lastReply?.usage ?? null);
}

/** The cut to make before the commander's next request, or null. */
export function contextCutOf(context: CommanderContext): ContextCut | null {
  const { limits, lastReply } = context;
  return planContextCut(context.messages, limits.context, lastReply?.usage ?? null, () =>
    commanderState(context),
  );
}

/** `- plan: [completed] Gather sources; [in_progress] Compare them` and so on. */
export function commanderState(context: CommanderContext): string[] {
  const lines: string[] = [];
  if (context.plan !== null) {
    const steps = context.plan.map((subtask) => `[${subtask.status}] ${subtask.title}`);
    lines.push(`- plan: ${steps.join('; ')}`);
  }
  if (context.dataset !== null) {
    const { current, handedOut, exhausted } = context.dataset;
    const at = current === null ? 'none' : `item ${current}`;
    lines.push(
      `- dataset: ${handedOut.length} items handed out, working on ${at}${exhausted ? ', no more items' : ''}`,
    );
  }
  const outputs = Object.keys(context.itemOutputs).length;
  if (outputs > 0) lines.push(`- outputs submitted for ${outputs} items`);
  if (context.output !== null) lines.push('- the task output is submitted');
  return lines;
}
