/**
 * Which script turn answers a request: the first unused turn, in script order, whose
 * `protocol` and `match` fit the request.
 */
import type { RequestSummary } from './protocol.ts';
import type { Protocol, ScriptTurn, TurnMatch } from './script.ts';

/** What the server knows about a request when it picks a turn. */
export interface IncomingRequest {
  protocol: Protocol;
  actor: string | undefined;
  summary: RequestSummary;
}

/** True when every condition of `match` holds for the request. */
export function matchesTurn(match: TurnMatch | undefined, request: IncomingRequest): boolean {
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
    !request.summary.lastMessage.includes(match.lastMessageContains)
  ) {
    return false;
  }
  if (match.contains !== undefined) {
    const { system, allText } = request.summary;
    if (!system.includes(match.contains) && !allText.includes(match.contains)) return false;
  }
  return true;
}

/** Index of the turn that answers the request, or -1 when none is left that fits. */
export function pickTurn(
  turns: readonly ScriptTurn[],
  used: ReadonlySet<number>,
  request: IncomingRequest,
): number {
  for (let index = 0; index < turns.length; index++) {
    if (used.has(index)) continue;
    const turn = turns[index]!;
    if (turn.protocol !== undefined && turn.protocol !== request.protocol) continue;
    if (matchesTurn(turn.match, request)) return index;
  }
  return -1;
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
