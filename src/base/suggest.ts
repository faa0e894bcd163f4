/**
 * "Did you mean" for every layer (config, schema, CLI): one distance and one closeness rule,
 * so the same typo gets the same suggestion wherever it is made.
 */

/**
 * Optimal-string-alignment distance: Levenshtein (insertions, deletions, substitutions) where
 * swapping two neighbours also costs one edit, the commonest typo (`defualt`).
 */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  let beforePrevious: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, (beforePrevious[j - 2] ?? 0) + 1);
      }
      current[j] = best;
    }
    beforePrevious = previous;
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * The candidate closest to `name`, or undefined when none is close enough. "Close" allows
 * one edit for names of up to three characters, else two or one per three characters.
 */
export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  const limit = name.length <= 3 ? 1 : Math.max(2, Math.floor(name.length / 3));
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    if (candidate === name) continue;
    // Case-only differences rank first; among equal distances, a candidate sharing the name's
    // prefix (gpt_4 → gpt_4o rather than gpt_5) reads as the likelier intent.
    const base =
      candidate.toLowerCase() === name.toLowerCase() ? 0.5 : editDistance(name, candidate);
    const distance = candidate.startsWith(name) || name.startsWith(candidate) ? base - 0.25 : base;
    if (distance <= limit && distance < bestDistance && distance < candidate.length) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** ` (did you mean "x"?)` when a candidate is close to `name`, else the empty string. */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  const closest = closestName(name, candidates);
  return closest === undefined ? '' : ` (did you mean "${closest}"?)`;
}
