import { UsageError } from '../base/errors.ts';
import { didYouMean } from '../base/suggest.ts';

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

/**
 * Refuses `--var` names the project does not declare: a misspelt variable would otherwise be
 * ignored while its default (or an environment value) silently takes its place.
 */
export function checkDeclaredVariables(
  vars: Record<string, string>,
  declared: Iterable<string>,
): void {
  const names = [...declared];
  const problems = Object.keys(vars)
    .filter((name) => !names.includes(name))
    .map(
      (name) =>
        `--var ${name}: the project declares no variable "${name}"${didYouMean(name, names)}`,
    );
  if (problems.length === 0) return;
  const hint =
    names.length === 0
      ? 'the project declares no variables'
      : `the project's variables: ${names.join(', ')}`;
  const [first] = problems;
  if (problems.length === 1 && first !== undefined) throw new UsageError(first, hint);
  throw new UsageError(`unknown variables:\n  ${problems.join('\n  ')}`, hint);
}
