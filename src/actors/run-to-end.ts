/**
 * The one way sortie runs a machine until it reaches its final state: the mission (the root
 * actor of a run), each fork and each iterated task go through `runToEnd`. Every actor below
 * the mission is started as a child of the actor that waits for it (its `parent`), so the run
 * is one xstate actor system and `inspect` on the mission sees all of it.
 */
import {
  createActor,
  toPromise,
  type Actor,
  type AnyActorLogic,
  type AnyActorRef,
  type InputFrom,
  type InspectionEvent,
  type Observer,
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
  /** The actor waiting for this one (a promise actor of a machine): the new actor joins its system. */
  parent?: AnyActorRef;
  /** A root actor's inspector (xstate `inspect`): sees every actor of the system. */
  inspect?: Observer<InspectionEvent> | ((event: InspectionEvent) => void);
  /** Called with the actor before it starts (to read its snapshots while it runs). */
  created?: (actor: Actor<TLogic>) => void;
}

/** The actor that waits for a piece of work (its actors are its children) and its signal. */
export interface InvokedBy {
  signal: AbortSignal;
  /** Absent only where no actor waits (a worker's item, a test). */
  parent?: AnyActorRef;
}

/**
 * Stops an actor started by sortie. xstate's `stop()` refuses a child (its parent stops it when
 * leaving the invoking state); a child started under a promise actor has no machine to do that,
 * so it gets the stop event xstate's own `stopChild` delivers.
 */
export function stopActor(actor: AnyActorRef): void {
  if (actor._parent === undefined) actor.stop();
  // xstate's stop event is not part of any machine's event types.
  else actor.send({ type: 'xstate.stop' } as never);
}

/** A defect (a throwing action) leaves xstate's children running: this stops their work. */
function stopChildren(actor: AnyActorRef): void {
  const snapshot: { children?: Record<string, AnyActorRef | undefined> } = actor.getSnapshot();
  for (const child of Object.values(snapshot.children ?? {})) {
    if (child !== undefined) stopActor(child);
  }
}

/**
 * The actor's output. Without `windDown`, rejects with an AbortError saying `cancelled` when
 * `signal` aborts (the actor is stopped, which aborts its children's requests through their own
 * signals); rejects with the actor's error when it fails, its children stopped.
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
      ...(options.parent === undefined ? {} : { parent: options.parent }),
      ...(options.inspect === undefined ? {} : { inspect: options.inspect }),
    });
    options.created?.(actor);
    const onAbort = (): void => {
      if (windDown !== undefined) {
        windDown(actor);
        return;
      }
      // Rejected before stopping: a stopped actor completes, which would resolve toPromise.
      reject(abortError(cancelled));
      stopActor(actor);
    };
    const settled = (): void => signal.removeEventListener('abort', onAbort);
    toPromise(actor).then(
      (output) => {
        settled();
        resolve(output);
      },
      (error: unknown) => {
        settled();
        stopChildren(actor);
        reject(error);
      },
    );
    actor.start();
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
}
