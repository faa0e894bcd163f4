/**
 * The commander's holds besides its tool gate: before the route `task_complete` chose takes
 * effect (`routeGate`), and before a round's failed results go back to the model
 * (`failureGate`). Each is a named actor invoked by the state that waits for it, so leaving
 * that state (the commander is stopped) lets go of the hold.
 */
import { fromPromise } from 'xstate';
import type { CommanderContext } from './commander-context.ts';
import { environmentOf, type RouteGateInput, type WithEnvironment } from './commander-io.ts';
import { failedResults, type FailureGateInput } from './failure-gate.ts';

/** The hold actors, by the names the machine invokes them with. */
export const commanderHoldActors = {
  /** Invoked by `holdingRoute`; resolves when the route may take effect. */
  routeGate: fromPromise<void, WithEnvironment<RouteGateInput>>(({ input, signal }) =>
    environmentOf(input.environment, 'routeGate').routeGate(input, signal),
  ),
  /** Invoked by `holdingFailures`; resolves when the failed results may go back. */
  failureGate: fromPromise<void, WithEnvironment<FailureGateInput>>(({ input, signal }) =>
    environmentOf(input.environment, 'failureGate').failureGate(input, signal),
  ),
};

type Guard = (args: { context: CommanderContext }) => boolean;

/** The guards of the holds. */
export const commanderHoldGuards = {
  /** A router task succeeded: its route (or `none`) is about to take effect. */
  routeDecided: (({ context }) =>
    context.completion?.outcome === 'succeeded' &&
    (context.task.routes ?? []).length > 0) satisfies Guard,
  /** Some result of this round is an error. */
  roundHasFailures: (({ context }) => failedResults(context.results).length > 0) satisfies Guard,
};

/** `holdingRoute`'s input. */
export function routeGateInput({
  context,
}: {
  context: CommanderContext;
}): WithEnvironment<RouteGateInput> {
  return { route: context.completion?.route ?? null, environment: context.environment };
}

/** `holdingFailures`' input. */
export function failureGateInput({
  context,
}: {
  context: CommanderContext;
}): WithEnvironment<FailureGateInput> {
  return { failures: failedResults(context.results), environment: context.environment };
}
