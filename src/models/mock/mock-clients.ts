/**
 * `--mock-model FILE`: a ModelClientFactory answering from a mock-model file in process (no
 * network, no key), matching requests by the scripted server's own rule (`base/turn-match.ts`).
 * Each actor uses its answers in order — the first unused one whose `when` fits — and a resumed
 * actor goes on after the answers its restored conversation holds.
 */
import type { Message, Part } from '../../base/conversation.ts';
import { pickMatchingTurn, type MatchableRequest } from '../../base/turn-match.ts';
import type { ModelClientFactory } from '../create-client.ts';
import type { ModelRequest, ModelResponse } from '../model-types.ts';
import type { MockActorScript, MockModel, MockTurn } from './mock-file.ts';
import { UnmatchedMockRequestError } from './unmatched.ts';

/** An actor's place in its script: which answers it used. */
interface ActorCursor {
  script: MockActorScript;
  used: Set<number>;
}

/** A factory whose clients answer from `mock`; every client shares the actors' places. */
export function mockModelClients(mock: MockModel): ModelClientFactory {
  const cursors = new Map<string, ActorCursor | null>();
  const cursorOf = (actor: string, request: ModelRequest): ActorCursor | null => {
    let cursor = cursors.get(actor);
    if (cursor === undefined) {
      const script = mock.actors.find((candidate) => candidate.pattern.test(actor));
      cursor = script === undefined ? null : { script, used: new Set() };
      // A resumed actor's conversation holds the answers it got before the restart: they
      // were its first answers, in order. (A task restarted from scratch has none.)
      const earlier = request.messages.filter((message) => message.role === 'assistant').length;
      for (let index = 0; cursor !== null && index < earlier; index++) cursor.used.add(index);
      cursors.set(actor, cursor);
    }
    return cursor;
  };
  const answered = new Map<string, number>();
  return (model) => ({
    model,
    async generate(request: ModelRequest): Promise<ModelResponse> {
      // Answer after one turn of the event loop, as a network reply would (see replayClients).
      await new Promise((resolve) => setImmediate(resolve));
      request.signal?.throwIfAborted();
      const actor = request.actor ?? 'unknown';
      const turn = request.turn ?? (answered.get(actor) ?? 0) + 1;
      const cursor = cursorOf(actor, request);
      const matchable = matchableOf(request, actor);
      const index =
        cursor === null ? -1 : pickMatchingTurn(cursor.script.turns, cursor.used, matchable);
      if (cursor === null || index === -1) {
        throw new UnmatchedMockRequestError(mock.path, request, matchable, cursor?.script);
      }
      cursor.used.add(index);
      answered.set(actor, turn);
      const response = responseOf(cursor.script.turns[index]!, turn, model.apiName);
      for (const part of response.message.parts) {
        if (part.type === 'text') request.onDelta?.(part.text);
      }
      return response;
    },
  });
}

function responseOf(turn: MockTurn, number: number, model: string): ModelResponse {
  const parts: Part[] = [];
  if (turn.text !== undefined) parts.push({ type: 'text', text: turn.text });
  turn.toolCalls.forEach((call, index) => {
    parts.push({
      type: 'tool_call',
      id: `mock_${number}_${index + 1}`,
      name: call.name,
      arguments: JSON.stringify(call.arguments),
    });
  });
  return {
    message: { role: 'assistant', parts },
    stopReason: turn.toolCalls.length > 0 ? 'tool_use' : 'end',
    usage: { ...turn.usage, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
    model,
    warnings: [],
  };
}

/** The request's text as the matching rule reads it (tool results count as text). */
export function matchableOf(request: ModelRequest, actor: string): MatchableRequest {
  const lastUser = request.messages.findLast((message) => message.role === 'user');
  return {
    actor,
    system: request.system,
    lastMessage: lastUser === undefined ? '' : messageText(lastUser),
    allText: request.messages.map(messageText).join('\n'),
  };
}

function messageText(message: Message): string {
  return message.parts.map(partText).join('');
}

function partText(part: Part): string {
  if (part.type === 'text') return part.text;
  if (part.type !== 'tool_result') return '';
  if (typeof part.content === 'string') return part.content;
  return part.content.map((inner) => (inner.type === 'text' ? inner.text : '')).join('');
}
