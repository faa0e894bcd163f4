/**
 * `--record FILE`: a ModelClientFactory that forwards every request to the real clients and
 * appends each answered turn to a cassette. Turns are counted per actor and only when
 * answered, so a replay (which answers every request) counts the same way.
 */
import type { ModelClientFactory } from '../../models/create-client.ts';
import type { ModelRequest } from '../../models/model-types.ts';
import type { Redactor } from '../../base/redact.ts';
import { cassetteRequest, modelReference, NO_ACTOR } from './cassette-format.ts';
import type { CassetteWriter } from './cassette-writer.ts';

/** Wraps `inner` so every answered turn is recorded (redacted by the writer and by `redact`). */
export function recordingClients(
  inner: ModelClientFactory,
  writer: CassetteWriter,
  redact: Redactor,
): ModelClientFactory {
  const turns = new Map<string, number>();
  return (model, hooks) => {
    const client = inner(model, hooks);
    return {
      model: client.model,
      async generate(request: ModelRequest) {
        const response = await client.generate(request);
        const actor = request.actor ?? NO_ACTOR;
        // The run's number when it gives one (a resumed run goes on from its journal).
        const turn = request.turn ?? (turns.get(actor) ?? 0) + 1;
        turns.set(actor, turn);
        writer.append({
          actor: redact(actor),
          turn,
          model: modelReference(model),
          request: cassetteRequest(request),
          response,
        });
        return response;
      },
    };
  };
}
