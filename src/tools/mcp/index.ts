export { McpPool, McpReferenceError } from './mcp-pool.ts';
export { McpStartError } from './mcp-errors.ts';
export { modelToolName, PROVIDER_TOOL_NAME } from './mcp-tool-names.ts';
export type { McpServerSpec } from './mcp-spec.ts';
export { mcpReferencesOf, mcpReferencesOfMission } from './mcp-references.ts';
export { AuthStore, mcpAuthDirectory } from './oauth/auth-store.ts';
export { loginToServer } from './oauth/mcp-login.ts';
export type { LoginOutcome } from './oauth/mcp-login.ts';
export { LoginCallbackError } from './oauth/loopback-callback.ts';
