/**
 * `--replay-model FILE`: a ModelClientFactory answering from a cassette with no network. Each
 * request is matched by actor id and that actor's turn number, compared with the recorded
 * request (strict: a mismatch fails the turn; lenient: warns and answers), and answered with
 * the recorded response, its text streamed through `onDelta`.
 */
import type { ModelClientFactory } from '../../models/create-client.ts';
import type { ModelRequest, ModelResponse } from '../../models/model-types.ts';
import { redactDeep, type Redactor } from '../../base/redact.ts';
import { entryOf } from '../../base/per-object.ts';
import { CassetteMismatchError, MissingCassetteTurnError } from '../journal-errors.ts';
import { requestDiff } from './diff.ts';
import {
  cassetteRequest,
  modelReference,
  NO_ACTOR,
  type Cassette,
  type CassetteEntry,
} from './cassette-format.ts';

/** Replay choices. */
export interface ReplayOptions {
  /** Answer mismatching requests anyway (after `onWarning`). Default false. */
  lenient?: boolean;
  /** Receives each mismatch's message in lenient mode. */
  onWarning?: (message: string, error: CassetteMismatchError) => void;
  /**
   * The run's redactor, applied to live requests before comparing: the cassette holds
   * redacted text, so a secret in a tool result must not count as a difference.
   */
  redact?: Redactor;
}

/** Characters per streamed delta of a replayed text. */
const DELTA_SIZE = 24;

/** A factory whose clients answer from `cassette`; turn counters are shared by all its clients. */
export function replayClients(cassette: Cassette, options: ReplayOptions = {}): ModelClientFactory {
  const recorded = indexEntries(cassette.entries);
  const asked = new Map<string, number>();
  const redact = options.redact ?? ((text: string) => text);
  return (model) => ({
    model,
    async generate(request: ModelRequest): Promise<ModelResponse> {
      // Answer after one turn of the event loop, as a network reply would: a run replayed
      // from memory alone would never let the journal's flush timer or the TUI's repaint run.
      await new Promise((resolve) => setImmediate(resolve));
      request.signal?.throwIfAborted();
      const actor = redact(request.actor ?? NO_ACTOR);
      // The run numbers an actor's turns (a resumed actor goes on from its journal); a caller
      // outside a run gets them counted here.
      const turn = request.turn ?? (asked.get(actor) ?? 0) + 1;
      asked.set(actor, turn);
      const turns = recorded.get(actor);
      const entry = turns?.get(turn);
      if (entry === undefined) throw new MissingCassetteTurnError(actor, turn, turns?.size ?? 0);
      const difference = requestDiff(
        { model: entry.model, ...entry.request, reasoning: entry.request.reasoning ?? null },
        redactDeep({ model: modelReference(model), ...cassetteRequest(request) }, redact),
      );
      if (difference !== undefined) {
        const error = new CassetteMismatchError(
          actor,
          turn,
          `model request of ${actor} (turn ${turn}) differs from the cassette ${difference}`,
        );
        if (options.lenient !== true) throw error;
        options.onWarning?.(error.message, error);
      }
      const response = structuredClone(entry.response);
      streamText(response, request);
      return response;
    },
  });
}

function indexEntries(entries: readonly CassetteEntry[]): Map<string, Map<number, CassetteEntry>> {
  const index = new Map<string, Map<number, CassetteEntry>>();
  for (const entry of entries) {
    entryOf(index, entry.actor, () => new Map()).set(entry.turn, entry);
  }
  return index;
}

function streamText(response: ModelResponse, request: ModelRequest): void {
  if (request.onDelta === undefined) return;
  for (const part of response.message.parts) {
    if (part.type !== 'text') continue;
    for (let start = 0; start < part.text.length; start += DELTA_SIZE) {
      request.onDelta(part.text.slice(start, start + DELTA_SIZE));
    }
  }
}
