import { describeFileSystemError, isFileSystemError } from '../base/file-system-error.ts';
import { ConfigError, UsageError } from '../base/errors.ts';
import { ProjectNotFoundError } from '../config/syntax/project-errors.ts';
import { shellWord } from './resume-line.ts';
import { ExitCode } from '../base/exit-codes.ts';
import { escapeControlCharacters as safe } from '../base/control-characters.ts';
import { useColor, type CliIo } from './io.ts';
import { reasonOf } from '../base/reason.ts';

/**
 * Prints an error that ended a command and returns its exit code: configuration and usage
 * problems exit 2, and so do file-system failures (a full disk, a folder where a file should
 * be); anything else is reported as an internal error with exit 1. Never a stack trace.
 * Messages quote what the user gave (paths, files), so control characters show escaped.
 * The diagnostics printer (string-width and its tables) is loaded only when it has work, so
 * it is not part of every command's start.
 */
export async function printFailure(error: unknown, io: CliIo): Promise<number> {
  const color = useColor(io, 'stderr');
  if (error instanceof ConfigError) {
    const sources =
      'sources' in error && error.sources instanceof Map
        ? (error.sources as Map<string, string>)
        : new Map();
    const { printDiagnostics } = await import('./print-diagnostics.ts');
    printDiagnostics(error.diagnostics, sources, io.stderr, color);
    io.stderr(`${safe(error.message)}\n`);
    return ExitCode.usage;
  }
  if (error instanceof UsageError) {
    io.stderr(
      `error: ${safe(error.message)}\n${error.hint === undefined ? '' : `hint: ${safe(error.hint)}\n`}`,
    );
    return ExitCode.usage;
  }
  if (error instanceof ProjectNotFoundError) {
    // A folder without a project is most often where a newcomer means to start one.
    const hint =
      error.problem === 'empty'
        ? `hint: start a project there with: sortie init ${safe(shellWord(error.path))}\n`
        : '';
    io.stderr(`error: ${safe(error.message)}\n${hint}`);
    return ExitCode.usage;
  }
  // A file the command needed could not be read or written: the user's to fix, not a defect.
  if (isFileSystemError(error)) {
    io.stderr(`error: ${safe(describeFileSystemError(error))}\n`);
    return ExitCode.usage;
  }
  const message = reasonOf(error);
  io.stderr(`error: internal error: ${safe(message)}\n`);
  return ExitCode.missionFailed;
}
