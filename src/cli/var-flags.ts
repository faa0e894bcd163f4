import { UsageError } from '../errors.ts';

/** Parses repeated `--var NAME=VALUE` flags; a flag without `=` is a usage error. */
export function parseVarFlags(flags: readonly string[]): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const flag of flags) {
    const separator = flag.indexOf('=');
    if (separator <= 0) {
      throw new UsageError(
        `--var ${flag}: expected NAME=VALUE`,
        'for example --var region=eu-west-1',
      );
    }
    vars[flag.slice(0, separator)] = flag.slice(separator + 1);
  }
  return vars;
}
