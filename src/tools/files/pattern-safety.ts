/**
 * Model-supplied regexes run on the runtime's own thread, and JavaScript regexes have no time
 * limit: a pattern like `(a+)+$` can take exponential time on a long line and freeze every
 * actor of the run. Such patterns need a repeated part inside another repeated part (star
 * height above one), so those are refused — with a message the model can act on — before
 * anything is searched. Backreferences are refused too (they defeat every bound).
 */

/** Why `source` is refused, or undefined when it is safe to run. */
export function unsafePatternReason(source: string): string | undefined {
  // For each open group: whether something inside it repeats.
  const groups: boolean[] = [];
  // The group that just closed had a repetition inside (a quantifier now would nest).
  let afterRepeatingGroup = false;
  let index = 0;
  while (index < source.length) {
    const char = source[index] as string;
    const quantifier = quantifierAt(source, index);
    if (quantifier > 0) {
      if (afterRepeatingGroup) return NESTED_REPETITION;
      markRepeating(groups);
      index += quantifier;
    } else if (char === '\\') {
      const next = source[index + 1] ?? '';
      if (/[1-9]/.test(next) || (next === 'k' && source[index + 2] === '<')) return BACKREFERENCE;
      index += 2;
    } else if (char === '[') {
      index = endOfClass(source, index);
    } else if (char === '(') {
      groups.push(false);
      index += 1;
    } else if (char === ')') {
      const repeatsInside = groups.pop() ?? false;
      if (repeatsInside) markRepeating(groups);
      index += 1;
      afterRepeatingGroup = repeatsInside;
      continue;
    } else {
      index += 1;
    }
    afterRepeatingGroup = false;
  }
  return undefined;
}

const NESTED_REPETITION =
  'a repeated group contains a repetition (like (a+)+), which can take exponential time; rewrite the pattern without nesting repetitions';
const BACKREFERENCE = 'backreferences are not supported in search patterns';

/** The innermost open group now has a repetition inside. */
function markRepeating(groups: boolean[]): void {
  if (groups.length > 0) groups[groups.length - 1] = true;
}

/**
 * The length of the repeating quantifier at `index` — `*`, `+` or a count `{n,m}` other than
 * `{1}` / `{0,1}`, with its lazy `?` — or 0 (`?` alone is optional, not repeating).
 */
function quantifierAt(source: string, index: number): number {
  const char = source[index];
  let length = 0;
  if (char === '*' || char === '+') length = 1;
  else if (char === '{') {
    const match = /^\{\d+(,\d*)?\}/.exec(source.slice(index));
    if (match !== null && match[0] !== '{1}' && match[0] !== '{0,1}') length = match[0].length;
  }
  if (length > 0 && source[index + length] === '?') length += 1;
  return length;
}

/** The index just after the character class starting at `start`. */
function endOfClass(source: string, start: number): number {
  let index = start + 1;
  if (source[index] === '^') index += 1;
  if (source[index] === ']') index += 1;
  while (index < source.length && source[index] !== ']') {
    index += source[index] === '\\' ? 2 : 1;
  }
  return index + 1;
}
