import { createHash } from 'node:crypto';

/** What every provider accepts as a tool name. */
export const PROVIDER_TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX_NAME_LENGTH = 64;
const HASH_LENGTH = 8;

/**
 * The model-visible name of an MCP tool: `mcp_<server>_<tool>`. A name providers would refuse
 * (a character outside `[a-zA-Z0-9_-]`, or longer than 64) has those characters replaced with
 * `_`, is cut to 55 characters and ends in `_` + 8 hex digits of the SHA-256 of the full name:
 * the same server and tool always get the same name, and two tools whose cleaned names meet
 * (`a.b`, `a_b`) still differ.
 */
export function modelToolName(server: string, tool: string): string {
  const full = `mcp_${server}_${tool}`;
  if (PROVIDER_TOOL_NAME.test(full)) return full;
  const hash = createHash('sha256').update(full).digest('hex').slice(0, HASH_LENGTH);
  const cleaned = full.replace(/[^a-zA-Z0-9_-]/g, '_');
  return `${cleaned.slice(0, MAX_NAME_LENGTH - HASH_LENGTH - 1)}_${hash}`;
}
