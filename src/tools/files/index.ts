import type { AgentTool } from '../builtins/agent-tool.ts';
import { withDeadline } from './deadline.ts';
import { createFileCreateTool } from './file-create.ts';
import { createFileDeleteTool } from './file-delete.ts';
import { createFileGrepTool } from './file-grep.ts';
import { createFileListTool } from './file-list.ts';
import { createFileReadTool } from './file-read.ts';
import { createFileSearchTool } from './file-search.ts';
import { createFileViewTool } from './file-view.ts';
import type { SlotSet } from './slots.ts';

export { SlotSet } from './slots.ts';
export type { SlotSources } from './slots.ts';
export { sweepScratchpadsDaily } from './scratchpad-sweep.ts';

/**
 * The file tools, in offering order, when the mission has at least one slot; none otherwise.
 * Each call has a deadline (deadline.ts).
 */
export function fileToolsFor(slots: SlotSet): AgentTool[] {
  if (slots.isEmpty) return [];
  return [
    createFileListTool(slots),
    createFileReadTool(slots),
    createFileCreateTool(slots),
    createFileDeleteTool(slots),
    createFileSearchTool(slots),
    createFileGrepTool(slots),
    createFileViewTool(slots),
  ].map((tool) => withDeadline(tool));
}
