/**
 * Which tool calls of one reply may run at the same time: the one rule the agent machine's
 * `callMustWait` guard asks before it starts a call (docs/decisions.md, "Tool calls of one
 * reply run together").
 */
import type { ToolCallPart } from '../models/model-types.ts';
import { HUMAN_ASK_TOOL } from '../tools/builtins/human-ask.ts';

/** File tools that change a slot: they never overlap another call on the same slot. */
const FILE_WRITES: ReadonlySet<string> = new Set(['file_create', 'file_delete']);

/** File tools that only read a slot. */
const FILE_READS: ReadonlySet<string> = new Set([
  'file_read',
  'file_view',
  'file_list',
  'file_grep',
  'file_search',
]);

/** The slot a file tool's call names, or undefined for any other call (or no readable slot). */
function slotOf(call: ToolCallPart): string | undefined {
  if (!FILE_WRITES.has(call.name) && !FILE_READS.has(call.name)) return undefined;
  try {
    const args: unknown = JSON.parse(call.arguments);
    const slot = (args as { slot?: unknown } | null)?.slot;
    return typeof slot === 'string' ? slot : undefined;
  } catch {
    // Unparsable arguments are refused by the tool's argument check: nothing is written.
    return undefined;
  }
}

/**
 * Whether `next` must wait for `running` to end: a question to the person runs alone (one
 * question on the terminal at a time), and a file write shares its slot with no other call.
 */
export function callsOverlapBadly(next: ToolCallPart, running: ToolCallPart): boolean {
  if (next.name === HUMAN_ASK_TOOL || running.name === HUMAN_ASK_TOOL) return true;
  if (!FILE_WRITES.has(next.name) && !FILE_WRITES.has(running.name)) return false;
  const slot = slotOf(next);
  return slot !== undefined && slot === slotOf(running);
}
