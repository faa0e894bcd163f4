/**
 * Runs an actor logic as a root actor until it reaches its final state, stopping it when a
 * signal aborts (which aborts its children's requests through their own signals).
 */
import {
  createActor,
  toPromise,
  type AnyActorLogic,
  type InputFrom,
  type OutputFrom,
} from 'xstate';
import { abortError } from '../base/abort.ts';

/**
 * The actor's output. Rejects with an AbortError when `signal` aborts (the actor is stopped)
 * and with the actor's error when it fails.
 */
export function runToEnd<TLogic extends AnyActorLogic>(
  logic: TLogic,
  input: InputFrom<TLogic>,
  signal: AbortSignal,
  cancelled: string,
): Promise<OutputFrom<TLogic>> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(abortError(cancelled));
      return;
    }
    const actor = createActor(logic, { input });
    // Rejected before stopping: a stopped actor completes, which would resolve toPromise.
    const onAbort = (): void => {
      reject(abortError(cancelled));
      actor.stop();
    };
    signal.addEventListener('abort', onAbort, { once: true });
    const settled = (): void => signal.removeEventListener('abort', onAbort);
    toPromise(actor).then(
      (output) => {
        settled();
        resolve(output);
      },
      (error: unknown) => {
        settled();
        reject(error);
      },
    );
    actor.start();
  });
}
