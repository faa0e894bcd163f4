import { Command, CommanderError } from 'commander';
import { COMMANDS } from './commands.ts';
import { ExitCode } from '../base/exit-codes.ts';
import type { CliIo } from './io.ts';
import { withOptionSuggestion } from './option-suggestion.ts';
import { printFailure } from './print-failure.ts';
import { sortieVersion } from './version.ts';

/** The `sortie` program with every command registered, writing through `io`. */
export function createProgram(io: CliIo, setExitCode: (code: number) => void): Command {
  const program = new Command('sortie')
    .description('Run multi-agent LLM missions written in HCL')
    .version(sortieVersion(), '-V, --version', 'print the version')
    .showSuggestionAfterError(true)
    .showHelpAfterError('(run sortie --help for usage)')
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
  for (const register of COMMANDS) register(program, io, setExitCode);
  for (const command of program.commands) {
    command
      .exitOverride()
      .configureOutput({
        writeOut: io.stdout,
        writeErr: io.stderr,
        outputError: (text, write) => write(withOptionSuggestion(text, command)),
      })
      .showSuggestionAfterError(true);
  }
  return program;
}

/**
 * Runs the CLI and returns the exit code. Usage errors exit 2 with commander's message and
 * suggestion; any failure is printed as a message, never a stack trace.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let exitCode: number = ExitCode.ok;
  const program = createProgram(io, (code) => {
    exitCode = code;
  });
  if (argv.length === 0) {
    program.outputHelp();
    return ExitCode.ok;
  }
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      const helpCodes = ['commander.helpDisplayed', 'commander.help', 'commander.version'];
      return helpCodes.includes(error.code) || error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
    }
    return await printFailure(error, io);
  }
}
