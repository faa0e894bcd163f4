/**
 * `sortie mcp login|logout|status`: OAuth logins to a project's remote MCP servers; `sortie mcp
 * serve`: the project's missions served to an MCP client over stdio.
 */
import type { Command } from 'commander';
import { collect } from './collect-flag.ts';
import type { RegisterCommand } from './commands.ts';
import type { McpServeFlags } from './mcp-serve-command.ts';

/** The flags of `sortie mcp login`. */
export interface McpLoginFlags {
  browser: boolean;
  var?: string[];
}

export const registerMcp: RegisterCommand = (program: Command, io, setExitCode) => {
  const mcp = program
    .command('mcp')
    .description(
      "log in to a project's OAuth-protected MCP servers, see their logins, or serve its missions over MCP",
    );
  mcp
    .command('login')
    .description(
      'log in to a url server with OAuth in the browser ($BROWSER, else the system opener)',
    )
    .argument('NAME', 'the server: the label of its mcp block')
    .argument('[DIR]', 'project directory or .hcl file', '.')
    .option('--no-browser', 'print the authorization URL instead of opening a browser')
    .option('--var <NAME=VALUE>', 'set a variable (repeatable)', collect)
    .action(async (name: string, directory: string, flags: McpLoginFlags) => {
      const { mcpLogin } = await import('./mcp-command.ts');
      setExitCode(await mcpLogin(name, directory, flags, io));
    });
  mcp
    .command('logout')
    .description("forget a server's stored OAuth login")
    .argument('NAME', 'the server: the label of its mcp block')
    .argument('[DIR]', 'project directory or .hcl file', '.')
    .option('--var <NAME=VALUE>', 'set a variable (repeatable)', collect)
    .action(async (name: string, directory: string, flags: { var?: string[] }) => {
      const { mcpLogout } = await import('./mcp-command.ts');
      setExitCode(await mcpLogout(name, directory, flags.var ?? [], io));
    });
  mcp
    .command('status')
    .description("list a project's MCP servers with their login state and expiry")
    .argument('[DIR]', 'project directory or .hcl file', '.')
    .option('--var <NAME=VALUE>', 'set a variable (repeatable)', collect)
    .action(async (directory: string, flags: { var?: string[] }) => {
      const { mcpStatus } = await import('./mcp-status.ts');
      setExitCode(await mcpStatus(directory, flags.var ?? [], io));
    });
  mcp
    .command('serve')
    .description(
      "serve the project's missions to an MCP client over stdio (tools, runs as resources)",
    )
    .argument('[DIR]', 'project directory or .hcl file', '.')
    .option('--state-dir <DIR>', 'where runs are kept (default: SORTIE_HOME or <project>/.sortie)')
    .option('--var <NAME=VALUE>', 'set a variable (repeatable)', collect)
    .option('--queue-limit <N>', 'runs one mission may have waiting beyond max_parallel', '20')
    .action(async (directory: string, flags: McpServeFlags) => {
      const { mcpServeCommand } = await import('./mcp-serve-command.ts');
      setExitCode(await mcpServeCommand(directory, flags, io));
    });
};
