/**
 * A "did you mean" for an unknown option that is the start of a real one (`--mock` for
 * `--mock-model`): commander suggests by edit distance only, and a cut-off name is too far.
 */
import type { Command } from 'commander';

const UNKNOWN_OPTION = /^error: unknown option '(--[^'=]+)[^']*'\n$/;

/** Commander's error text, with `(Did you mean --X?)` added when one option starts with the name. */
export function withOptionSuggestion(text: string, command: Command): string {
  const written = UNKNOWN_OPTION.exec(text)?.[1];
  if (written === undefined) return text;
  const longer = command.options
    .map((option) => option.long)
    .filter((long): long is string => long !== undefined && long.startsWith(`${written}-`));
  const [only] = longer;
  return longer.length === 1 ? `${text}(Did you mean ${only}?)\n` : text;
}
