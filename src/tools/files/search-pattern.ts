import { RE2JS, RE2JSSyntaxException } from 're2js';

/**
 * Model-supplied regexes run on the runtime's own thread, and JavaScript's backtracking
 * engine has no time limit: `(a|a)+$` on 27 characters takes seconds and a longer line
 * freezes every actor of the run, deaf to Ctrl-C. So `file_grep` and `file_search` match
 * with re2js, a port of RE2, whose time is linear in the text for every pattern. RE2 has no
 * backreferences, lookaround, atomic groups or possessive quantifiers; a pattern using them
 * gets an error naming the syntax and how to write the search without it.
 */

/** A model's pattern, compiled for linear-time matching. */
export interface SearchPattern {
  /** Whether the pattern matches anywhere in `text` (unanchored, like `RegExp.test`). */
  test(text: string): boolean;
}

/** The compiled pattern, or the error text for the model. Case-sensitive unless `(?i)`. */
export function compilePattern(source: string): SearchPattern | string {
  try {
    return RE2JS.compile(source);
  } catch (error) {
    if (!(error instanceof RE2JSSyntaxException)) throw error;
    return patternError(error.error, error.input ?? '');
  }
}

const NO_BACKTRACKING = 'RE2 never backtracks, so it is not needed';
const NO_LOOKAROUND = 'RE2 has no lookaround';
const ESCAPES =
  'RE2 escapes are \\d \\s \\w \\b \\A \\z \\x{…} \\p{…}, their upper-case negations, \\t \\n \\r \\f \\v, and \\ before punctuation; write a code point as \\x{00e9}';

/** An unsupported construct: which syntax, and how to search without it. */
function unsupported(what: string, token: string, advice: string): string {
  return `unsupported pattern syntax: ${what} "${token}"; ${advice}`;
}

/** The model-facing text for a parse failure (`kind` and `input` as RE2 reports them). */
function patternError(kind: string, input: string): string {
  if (kind === 'invalid escape sequence') return escapeError(input);
  // RE2 reads `(?<=` as a malformed named group `(?<name>`.
  if (kind === 'invalid or unsupported Perl syntax' || kind === 'invalid named capture') {
    const group = groupError(input, kind === 'invalid named capture');
    if (group !== undefined) return group;
  }
  if (kind === 'invalid nested repetition operator') {
    return unsupported(
      'possessive or doubled quantifier',
      input,
      `write one quantifier, e.g. a+ instead of a++ (${NO_BACKTRACKING})`,
    );
  }
  if (kind === 'invalid repeat count' && !isReversedCount(input)) {
    return unsupported(
      'repeat count',
      input,
      'RE2 repeats at most 1000 times, nested counts multiplied; use + or * for longer runs',
    );
  }
  return input === '' ? `invalid pattern: ${kind}` : `invalid pattern: ${kind}: \`${input}\``;
}

function escapeError(escape: string): string {
  if (/^\\[1-9k]/.test(escape)) {
    return unsupported(
      'backreference',
      escape,
      'RE2 cannot match a group again: write the repeated text out, e.g. (ab)ab instead of (ab)\\1, or match it loosely, e.g. (\\w+) \\w+',
    );
  }
  return unsupported('escape', escape, ESCAPES);
}

/** The error for `(?…` syntax RE2 lacks, or undefined when the group is merely malformed. */
function groupError(input: string, namedGroup: boolean): string | undefined {
  if (input.startsWith('(?=') || input.startsWith('(?!')) {
    return unsupported(
      'lookahead',
      input.slice(0, 3),
      `${NO_LOOKAROUND}: make the following text part of the match, e.g. foo(?=bar) → foobar, or leave it out`,
    );
  }
  if (input.startsWith('(?<=') || input.startsWith('(?<!')) {
    return unsupported(
      'lookbehind',
      input.slice(0, 4),
      `${NO_LOOKAROUND}: make the preceding text part of the match, e.g. (?<=\\$)\\d+ → \\$\\d+, or leave it out`,
    );
  }
  if (namedGroup) return undefined;
  if (input.startsWith('(?>')) {
    return unsupported('atomic group', '(?>', `write (?:…) instead (${NO_BACKTRACKING})`);
  }
  if (input.startsWith('(?')) {
    return unsupported(
      'group',
      input,
      'RE2 groups are (…), (?:…), (?<name>…) and flags such as (?i) for case-insensitive matching',
    );
  }
  return undefined;
}

/** `{5,2}`: a malformed count, not one beyond RE2's limit. */
function isReversedCount(count: string): boolean {
  const bounds = /^\{(\d+),(\d+)\}$/.exec(count);
  return bounds !== null && Number(bounds[2]) < Number(bounds[1]);
}
