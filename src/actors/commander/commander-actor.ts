/**
 * A commander actor: the commander machine provided with the run's model turns (the task's
 * model, system prompt and tools), the step gate for internal tools, the external tools and
 * the effects as events. `runCommander` runs one to the end and keeps it in the registry.
 */
import { createActor, fromPromise } from 'xstate';
import type {
  CommanderInput,
  CommanderResult,
  CompletionRecord,
  ExecuteToolInput,
  ToolGateInput,
} from '../../machines/commander-context.ts';
import { commanderMachine } from '../../machines/commander.machine.ts';
import type { ModelTurnInput, ModelTurnOutput, ToolOutcome } from '../../machines/turn-types.ts';
import type { ReasoningLevel, ResolvedModel } from '../../models/model-types.ts';
import { SortieError } from '../../base/errors.ts';
import { abortError } from '../../base/abort.ts';
import { openGate } from '../../runtime/gate.ts';
import { commanderTools } from '../../tools/commander/index.ts';
import { commanderEffects, emitMessage } from './commander-events.ts';
import type { CommanderRecord } from './commander-registry.ts';
import type { CommanderScope } from './commander-scope.ts';
import { executeCommanderTool } from './external-tools.ts';
import type {
  MessageAppendedParams,
  OutputSubmittedParams,
  PlanUpdatedParams,
  ToolCalledParams,
  ToolCompletedParams,
} from '../../machines/effect-params.ts';

/** Everything one commander run needs. */
export interface CommanderLaunch {
  scope: CommanderScope;
  model: ResolvedModel;
  /** Sent only to reasoning-capable models (the caller decides). */
  reasoning?: ReasoningLevel;
  system: string;
  input: CommanderInput;
  /** Resumed run: how many input messages the journal already holds (not appended again). */
  journaled?: number;
}

const toolsByLaunch = new WeakMap<CommanderLaunch, ReturnType<typeof commanderTools>>();

/** The commander tools of one launch, built once. */
function launchTools(launch: CommanderLaunch): ReturnType<typeof commanderTools> {
  let tools = toolsByLaunch.get(launch);
  if (tools === undefined) {
    tools = commanderTools(launch.input.task);
    toolsByLaunch.set(launch, tools);
  }
  return tools;
}

/** What the shared commander machine needs of one running commander. */
interface Running {
  launch: CommanderLaunch;
  tools: ReturnType<typeof commanderTools>;
  effects: ReturnType<typeof commanderEffects>;
}

/**
 * Each commander's actor system → its launch. `machine.provide` rebuilds every state node, which
 * cost about a fifth of a parallel item's CPU when done per commander, so one provided machine
 * serves all commanders and finds its launch through the actor system it runs in.
 */
const running = new WeakMap<object, Running>();

/** A defect: a commander machine ran outside `runCommander`. */
export class CommanderLaunchMissingError extends SortieError {
  constructor() {
    super('a commander machine ran without its launch');
  }
}

function runningIn(system: object): Running {
  const entry = running.get(system);
  if (entry === undefined) throw new CommanderLaunchMissingError();
  return entry;
}

/**
 * Commander tasks of runs whose gate is the open gate. Guards see only the context, whose
 * `task` is the run's own task object, so this tells the machine to skip the gating actor.
 */
const ungatedTasks = new WeakSet<object>();

/** The commander machine wired to the run (one machine for every commander). */
const wiredCommander = commanderMachine.provide({
  guards: {
    toolGateNeverHolds: ({ context }) => ungatedTasks.has(context.task),
  },
  actors: {
    modelTurn: fromPromise<ModelTurnOutput, ModelTurnInput>(async ({ input, signal, system }) => {
      const { launch, tools } = runningIn(system);
      const { scope, model, reasoning } = launch;
      const { response } = await scope.runtime.services.runModelTurn({
        actor: scope.actorId,
        task: scope.task,
        model,
        ...(reasoning !== undefined ? { reasoning } : {}),
        system: launch.system,
        messages: input.messages,
        tools: input.tools ?? tools,
        signal,
      });
      return response;
    }),
    // Internal tools are gated too, so `--step` holds at every commander tool alike.
    toolGate: fromPromise<void, ToolGateInput>(({ input, signal, system }) => {
      const { scope } = runningIn(system).launch;
      const { services } = scope.runtime;
      return services.gate.before(
        {
          kind: 'tool',
          actor: scope.actorId,
          tool: input.call.name,
          detail: services.redact(input.call.arguments),
        },
        signal,
      );
    }),
    executeTool: fromPromise<ToolOutcome, ExecuteToolInput>(({ input, signal, system }) =>
      executeCommanderTool(runningIn(system).launch.scope, input, signal),
    ),
  },
  actions: {
    emitPlanUpdated: (args, params: PlanUpdatedParams) =>
      runningIn(args.system).effects.emitPlanUpdated(args, params),
    emitToolCalled: (args, params: ToolCalledParams) =>
      runningIn(args.system).effects.emitToolCalled(args, params),
    emitToolCompleted: (args, params: ToolCompletedParams) =>
      runningIn(args.system).effects.emitToolCompleted(args, params),
    emitOutputSubmitted: (args, params: OutputSubmittedParams) =>
      runningIn(args.system).effects.emitOutputSubmitted(args, params),
    emitMessageAppended: (args, params: MessageAppendedParams) =>
      runningIn(args.system).effects.emitMessageAppended(args, params),
  },
});

/**
 * Runs a commander to its final state. Rejects only with an AbortError when `signal` aborts
 * (the actor is stopped, which aborts its model request and tools) or on a machine defect.
 */
export function runCommander(
  launch: CommanderLaunch,
  signal: AbortSignal,
): Promise<CommanderResult> {
  const { scope } = launch;
  for (const message of launch.input.messages.slice(launch.journaled ?? 0))
    emitMessage(scope.runtime.services.bus, scope.actorId, message);
  return new Promise<CommanderResult>((resolve, reject) => {
    if (signal.aborted) {
      reject(abortError('the commander was cancelled'));
      return;
    }
    const actor = createActor(wiredCommander, { input: launch.input, id: scope.actorId });
    const { bus } = scope.runtime.services;
    if (scope.runtime.services.gate === openGate) ungatedTasks.add(launch.input.task);
    running.set(actor.system, {
      launch,
      tools: launchTools(launch),
      effects: commanderEffects(bus, scope.actorId, scope.task),
    });
    const onAbort = (): void => {
      subscription.unsubscribe();
      actor.stop();
      reject(abortError('the commander was cancelled'));
    };
    const subscription = actor.subscribe({
      complete: () => {
        signal.removeEventListener('abort', onAbort);
        const output = actor.getSnapshot().output as CommanderResult;
        keepFinished(launch, output.messages);
        resolve(output);
      },
      error: (error) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    });
    signal.addEventListener('abort', onAbort, { once: true });
    actor.start();
  });
}

/**
 * Keeps a finished commander in the registry (for `ask_commander` and `ask_agent`) when some
 * later task can ask it: a task nothing depends on, routes or sends to is never asked, so its
 * commanders (one per item of a big iteration) are not kept. Returns the record kept.
 */
export function keepFinished(
  launch: CommanderLaunch,
  messages: CommanderResult['messages'],
): CommanderRecord | undefined {
  const { scope } = launch;
  if (!scope.runtime.graph.hasDescendants(scope.task)) return undefined;
  const record: CommanderRecord = {
    task: scope.task,
    index: scope.index,
    actorId: scope.actorId,
    model: launch.model,
    ...(launch.reasoning !== undefined ? { reasoning: launch.reasoning } : {}),
    system: launch.system,
    tools: launchTools(launch),
    messages,
    agents: scope.sessions,
  };
  scope.runtime.commanders.record(record);
  return record;
}

/**
 * Resumed run: a commander whose `task_complete` had been accepted before the restart ends
 * with that completion and its restored output, without another model turn.
 */
export function finishRestoredCommander(
  launch: CommanderLaunch,
  completion: CompletionRecord,
): CommanderResult {
  const { messages, restored } = launch.input;
  keepFinished(launch, messages);
  return {
    completion,
    failure: null,
    output: restored?.output ?? null,
    itemOutputs: {},
    plan: restored?.plan ?? null,
    messages,
    turns: 0,
  };
}
