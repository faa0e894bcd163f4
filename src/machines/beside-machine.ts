/**
 * What a running machine keeps beside its context (its jobs, its tries): objects an action
 * finds by the machine's own ref (`self`), made on first use and gone with the machine.
 */
import type { AnyActorRef } from 'xstate';
import { perObject } from '../base/per-object.ts';

/** The finder of one kind of such object: `make(machine)` the first time a machine asks. */
export function besideMachine<T>(make: (machine: AnyActorRef) => T): (machine: AnyActorRef) => T {
  return perObject(make);
}
