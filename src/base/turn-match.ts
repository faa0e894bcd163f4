/**
 * Which scripted answer fits a model request: the one matching rule of the scripted model
 * server (`sortie/testing`, over HTTP) and of `--mock-model` files (in process).
 */

/** Conditions a request must meet for a scripted turn to answer it; every one given must hold. */
export interface TurnMatch {
  /** The request's actor id (`x-sortie-actor` on the wire) equals this, or matches this RegExp. */
  actor?: string | RegExp;
  /** The last user message's text (tool results included) contains this. */
  lastMessageContains?: string;
  /** Any message or the system text contains this. */
  contains?: string;
}

/** The text of a request that matching looks at. */
export interface MatchableRequest {
  actor: string | undefined;
  /** The system text, or '' when none. */
  system: string;
  /** Text of the last user message, tool results included. */
  lastMessage: string;
  /** Every message's text joined. */
  allText: string;
}

/** True when every condition of `match` holds for the request. */
export function matchesRequest(match: TurnMatch | undefined, request: MatchableRequest): boolean {
  if (match === undefined) return true;
  if (match.actor !== undefined) {
    if (request.actor === undefined) return false;
    const fits =
      typeof match.actor === 'string'
        ? match.actor === request.actor
        : match.actor.test(request.actor);
    if (!fits) return false;
  }
  if (
    match.lastMessageContains !== undefined &&
    !request.lastMessage.includes(match.lastMessageContains)
  ) {
    return false;
  }
  if (match.contains !== undefined) {
    const { system, allText } = request;
    if (!system.includes(match.contains) && !allText.includes(match.contains)) return false;
  }
  return true;
}

/**
 * Index of the first turn not in `used`, in order, that `fits` and whose `match` holds for the
 * request; -1 when none is left.
 */
export function pickMatchingTurn<Turn extends { match?: TurnMatch }>(
  turns: readonly Turn[],
  used: ReadonlySet<number>,
  request: MatchableRequest,
  fits: (turn: Turn) => boolean = () => true,
): number {
  for (let index = 0; index < turns.length; index++) {
    if (used.has(index)) continue;
    const turn = turns[index]!;
    if (fits(turn) && matchesRequest(turn.match, request)) return index;
  }
  return -1;
}
