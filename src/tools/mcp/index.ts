export { McpPool, McpReferenceError } from './mcp-pool.ts';
export type { McpToolReference } from './mcp-pool.ts';
export { McpStartError, McpUnknownToolError } from './mcp-errors.ts';
export { modelToolName, PROVIDER_TOOL_NAME } from './mcp-tool-names.ts';
export { usesSseTransport, serverLabel } from './mcp-spec.ts';
export type { McpServerSpec } from './mcp-spec.ts';
export { CALL_TIMEOUT_MS } from './mcp-session.ts';
export { mcpReferencesOf, mcpReferencesOfMission } from './mcp-references.ts';
