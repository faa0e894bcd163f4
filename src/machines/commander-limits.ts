/** The default turn cap of a commander (runtime.md, "Commander loop"). */
export const DEFAULT_COMMANDER_MAX_TURNS = 200;

/** Replies without tool calls answered with a nudge before the commander fails. */
export const MAX_NUDGES = 2;

/** Replies in a row cut off by the output-token limit before the commander fails. */
export const MAX_OUTPUT_LIMIT_HITS = 3;

/** The message sent after a reply without tool calls. */
export const NUDGE_TEXT = 'Call a tool: continue your plan, or call task_complete.';

/** The result of every tool call in a reply cut off by the output-token limit. */
export const NOT_EXECUTED_TEXT = 'not executed: your reply hit the output token limit';

/** The message telling the model to be shorter after such a reply. */
export const BE_SHORTER_TEXT =
  'Your reply hit the output token limit and was cut off. Be shorter: fewer or smaller tool calls per reply.';
