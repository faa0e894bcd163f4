/**
 * The one way sortie runs a machine as a root actor until it reaches its final state: the
 * mission, each fork and each iterated task go through `runToEnd`.
 */
import {
  createActor,
  toPromise,
  type Actor,
  type AnyActorLogic,
  type InputFrom,
  type OutputFrom,
} from 'xstate';
import { abortError } from '../base/abort.ts';

/** How a run reacts to its signal, and the actor's id when it has one of its own. */
export interface RunToEndOptions<TLogic extends AnyActorLogic> {
  /** The root actor's id (journal and inspect name it); xstate picks one otherwise. */
  id?: string;
  /**
   * Called instead of stopping the actor when the signal aborts: the machine winds down on its
   * own (e.g. on a cancel event) and its output still arrives.
   */
  windDown?: (actor: Actor<TLogic>) => void;
}

/**
 * The actor's output. Without `windDown`, rejects with an AbortError saying `cancelled` when
 * `signal` aborts (the actor is stopped, which aborts its children's requests through their own
 * signals); rejects with the actor's error when it fails.
 */
export function runToEnd<TLogic extends AnyActorLogic>(
  logic: TLogic,
  input: InputFrom<TLogic>,
  signal: AbortSignal,
  cancelled: string,
  options: RunToEndOptions<TLogic> = {},
): Promise<OutputFrom<TLogic>> {
  const { windDown } = options;
  return new Promise((resolve, reject) => {
    if (signal.aborted && windDown === undefined) {
      reject(abortError(cancelled));
      return;
    }
    const actor = createActor(logic, {
      input,
      ...(options.id === undefined ? {} : { id: options.id }),
    });
    const onAbort = (): void => {
      if (windDown !== undefined) {
        windDown(actor);
        return;
      }
      // Rejected before stopping: a stopped actor completes, which would resolve toPromise.
      reject(abortError(cancelled));
      actor.stop();
    };
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
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
}
