/**
 * A commander actor: the commander machine provided with the run's model turns (the task's
 * model, system prompt and tools), the step gate for internal tools, the external tools and
 * the effects as events, all handed to the machine as its environment (one machine serves every
 * commander). `runCommander` runs one to the end and keeps it in the registry.
 */
import { runToEnd, type InvokedBy } from '../run-to-end.ts';
import type {
  CommanderInput,
  CommanderResult,
  CompletionRecord,
} from '../../machines/commander-context.ts';
import type { CommanderEnvironment } from '../../machines/commander-io.ts';
import { commanderMachine } from '../../machines/commander.machine.ts';
import type { ReasoningLevel, ResolvedModel } from '../../models/model-types.ts';
import { commanderTools } from '../../tools/commander/index.ts';
import { commanderEffects, emitMessage } from './commander-events.ts';
import { contextPolicyOf } from '../../runtime/context-window.ts';
import type { CommanderRecord } from './commander-registry.ts';
import type { CommanderScope } from './commander-scope.ts';
import { executeCommanderTool } from './external-tools.ts';
import { holdChosenRoute, holdFailedResults } from '../gate-holds.ts';
import { taskConfig } from '../mission/mission-runtime.ts';

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

/** One commander's environment: the run's model turns, step gate, external tools and events. */
function commanderEnvironment(launch: CommanderLaunch): CommanderEnvironment {
  const { scope, model, reasoning } = launch;
  const { services } = scope.runtime;
  const tools = commanderTools(launch.input.task);
  return {
    modelTurn: async (input, signal) => {
      const { response } = await services.runModelTurn({
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
    },
    // Internal tools are gated too, so `--step` holds at every commander tool alike.
    toolGate: (input, signal) =>
      services.gate.before(
        {
          kind: 'tool',
          actor: scope.actorId,
          tool: input.call.name,
          detail: services.redact(input.call.arguments),
        },
        signal,
      ),
    routeGate: (input, signal) =>
      holdChosenRoute(
        { gate: services.gate, actor: scope.actorId, redact: services.redact },
        taskConfig(scope.runtime, scope.task).routes ?? [],
        input.route,
        signal,
      ),
    failureGate: (input, signal) =>
      holdFailedResults(
        { gate: services.gate, actor: scope.actorId, redact: services.redact },
        input.failures,
        signal,
      ),
    executeTool: (input, signal, parent) => executeCommanderTool(scope, input, { signal, parent }),
    effects: commanderEffects(services.bus, scope.actorId, scope.task),
  };
}

/**
 * Runs a commander to its final state, a child of `by.parent`. Rejects only with an AbortError
 * when `by.signal` aborts (the actor is stopped, which aborts its model request and tools) or
 * on a machine defect.
 */
export async function runCommander(
  launch: CommanderLaunch,
  by: InvokedBy,
): Promise<CommanderResult> {
  const { scope } = launch;
  for (const message of launch.input.messages.slice(launch.journaled ?? 0))
    emitMessage(scope.runtime.services.bus, scope.actorId, message);
  const output = await runToEnd(
    commanderMachine,
    {
      ...launch.input,
      context: contextPolicyOf(scope.runtime.services.mission.commander),
      environment: commanderEnvironment(launch),
    },
    by.signal,
    'the commander was cancelled',
    { id: scope.actorId, parent: by.parent },
  );
  keepFinished(launch, output.messages);
  return output;
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
    tools: commanderTools(launch.input.task),
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
  const { messages, output, plan } = launch.input;
  keepFinished(launch, messages);
  return {
    completion,
    failure: null,
    output: output ?? null,
    itemOutputs: {},
    plan: plan ?? null,
    messages,
    turns: 0,
  };
}
