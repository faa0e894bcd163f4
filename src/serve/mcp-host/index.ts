/** sortie as an MCP server: over stdio (`sortie mcp serve`) and Streamable HTTP (`mcp_host`). */
export { serveMcpStdio, type McpStdioOptions } from './stdio-host.ts';
