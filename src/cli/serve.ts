import { collect } from './collect-flag.ts';
import type { RegisterCommand } from './commands.ts';

/** The flags of `sortie serve` as commander parses them. */
export interface ServeFlags {
  port: string;
  host: string;
  token?: string;
  stateDir?: string;
  var?: string[];
  grace: string;
  resume: boolean;
  cors?: string;
  queueLimit: string;
  otel?: string;
  mcpPort?: string;
}

/** `sortie serve [DIR]`: run the project's missions as a service (HTTP API, webhooks). */
export const registerServe: RegisterCommand = (program, io, setExitCode) => {
  program
    .command('serve')
    .description(
      'serve the project: an HTTP API and webhooks that start and watch runs (and MCP with mcp_host)',
    )
    .argument('[DIR]', 'project directory or .hcl file', '.')
    .option('--port <PORT>', 'the port to listen on (0 picks a free one)', '7700')
    .option(
      '--host <HOST>',
      'the address to listen on (anything but loopback needs a token)',
      '127.0.0.1',
    )
    .option(
      '--token <TOKEN>',
      'every request must send Authorization: Bearer TOKEN (or SORTIE_SERVE_TOKEN)',
    )
    .option('--state-dir <DIR>', 'where runs are kept (default: SORTIE_HOME or <project>/.sortie)')
    .option('--var <NAME=VALUE>', 'set a variable (repeatable)', collect)
    .option(
      '--grace <SECONDS>',
      'on SIGTERM or Ctrl-C, how long running runs may finish before they are cancelled',
      '30',
    )
    .option('--no-resume', 'do not resume the runs a previous server left in flight')
    .option('--cors <ORIGIN>', 'send CORS headers for this one origin')
    .option('--queue-limit <N>', 'runs one mission may have waiting beyond max_parallel', '20')
    .option(
      '--otel <URL>',
      'send each run as OpenTelemetry traces to this OTLP endpoint (or OTEL_EXPORTER_OTLP_ENDPOINT)',
    )
    .option(
      '--mcp-port <PORT>',
      "the mcp_host block's MCP endpoint listens on this port instead (0 picks a free one)",
    )
    .action(async (directory: string, flags: ServeFlags) => {
      const { serveCommand } = await import('./serve-command.ts');
      setExitCode(await serveCommand({ directory, flags }, io));
    });
};
