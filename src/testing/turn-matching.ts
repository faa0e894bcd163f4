/**
 * Which script turn answers a request: the first unused turn, in script order, whose
 * `protocol` and `match` fit the request (the matching itself is `base/turn-match.ts`, shared
 * with `--mock-model`).
 */
import type { RequestSummary } from './protocol.ts';
import {
  matchesRequest,
  pickMatchingTurn,
  type MatchableRequest,
  type TurnMatch,
} from '../base/turn-match.ts';
import type { Protocol, ScriptTurn } from './script.ts';

/** What the server knows about a request when it picks a turn. */
export interface IncomingRequest {
  protocol: Protocol;
  actor: string | undefined;
  summary: RequestSummary;
}

/** True when every condition of `match` holds for the request. */
export function matchesTurn(match: TurnMatch | undefined, request: IncomingRequest): boolean {
  return matchesRequest(match, matchable(request));
}

/** Index of the turn that answers the request, or -1 when none is left that fits. */
export function pickTurn(
  turns: readonly ScriptTurn[],
  used: ReadonlySet<number>,
  request: IncomingRequest,
): number {
  return pickMatchingTurn(
    turns,
    used,
    matchable(request),
    (turn) => turn.protocol === undefined || turn.protocol === request.protocol,
  );
}

function matchable({ actor, summary }: IncomingRequest): MatchableRequest {
  return {
    actor,
    system: summary.system,
    lastMessage: summary.lastMessage,
    allText: summary.allText,
  };
}

/** A one-line description of a turn for assertion messages. */
export function describeTurn(turn: ScriptTurn, index: number): string {
  const facts: string[] = [];
  if (turn.protocol !== undefined) facts.push(`protocol ${turn.protocol}`);
  if (turn.match?.actor !== undefined) facts.push(`actor ${String(turn.match.actor)}`);
  if (turn.match?.lastMessageContains !== undefined) {
    facts.push(`last message contains ${JSON.stringify(turn.match.lastMessageContains)}`);
  }
  if (turn.match?.contains !== undefined)
    facts.push(`contains ${JSON.stringify(turn.match.contains)}`);
  if (turn.error !== undefined) facts.push(`error ${turn.error.status}`);
  if (turn.reset === true) facts.push('reset');
  if (turn.toolCalls !== undefined)
    facts.push(`tool calls ${turn.toolCalls.map((call) => call.name).join(', ')}`);
  if (turn.text !== undefined) facts.push(`text ${JSON.stringify(truncate(turn.text, 40))}`);
  return `turn ${index}${facts.length > 0 ? ` (${facts.join('; ')})` : ''}`;
}

function truncate(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length - 1)}…`;
}
