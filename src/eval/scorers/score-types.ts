/** What scoring one expectation on one run gives. */

/** The verdict on one expectation: passed or not, and what the run showed. */
export interface Score {
  passed: boolean;
  /** The value seen, as one short line (`"Hello, Ada!"`, `0.0031`, `failed: …`). */
  seen: string;
}

/** A judge's extra: its verdict, reason and what judging cost (reported apart from the run). */
export interface JudgeScore extends Score {
  score: number;
  reason: string;
  tokens: number;
  costDollars: number;
}

/** The longest a seen value is shown before it is cut. */
const SEEN_LENGTH = 200;

/** A value as one line for `seen`: JSON, cut at 200 characters. */
export function seenText(value: unknown): string {
  const text = value === undefined ? 'nothing' : (JSON.stringify(value) ?? String(value));
  return text.length > SEEN_LENGTH ? `${text.slice(0, SEEN_LENGTH - 1)}…` : text;
}
