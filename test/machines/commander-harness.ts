import { createActor, toPromise } from 'xstate';
import type {
  Message,
  StopReason,
  ToolCallPart,
  ToolResultPart,
} from '../../src/models/model-types.ts';
import { commanderMachine } from '../../src/machines/commander.machine.ts';
import type {
  CommanderContext,
  CommanderInput,
  CommanderResult,
  CommanderTask,
} from '../../src/machines/commander-context.ts';
import type {
  CommanderEffects,
  CommanderEnvironment,
  ExecuteToolInput,
  ToolGateInput,
} from '../../src/machines/commander-io.ts';
import type {
  ModelTurnInput,
  ModelTurnOutput,
  ToolOutcome,
} from '../../src/machines/turn-types.ts';

let nextId = 0;

/** A tool call with JSON arguments (or raw text when `args` is a string). */
export function call(
  name: string,
  args: Record<string, unknown> | string = {},
  id?: string,
): ToolCallPart {
  nextId += 1;
  return {
    type: 'tool_call',
    id: id ?? `call_${nextId}`,
    name,
    arguments: typeof args === 'string' ? args : JSON.stringify(args),
  };
}

/** An assistant reply made of these tool calls. */
export function reply(...calls: ToolCallPart[]): ModelTurnOutput {
  return {
    message: { role: 'assistant', parts: calls },
    stopReason: calls.length > 0 ? 'tool_use' : 'end',
  };
}

/** An assistant reply with text only (or with a given stop reason). */
export function textReply(
  text: string,
  stopReason: StopReason = 'end',
  calls: ToolCallPart[] = [],
): ModelTurnOutput {
  return { message: { role: 'assistant', parts: [{ type: 'text', text }, ...calls] }, stopReason };
}

export const plainTask: CommanderTask = {
  hasAgents: true,
  hasAskableAgents: true,
  hasAncestors: false,
};

/** The rule state a rejected call must leave unchanged. */
export function ruleState(context: CommanderContext) {
  return {
    plan: context.plan,
    planLocked: context.planLocked,
    output: context.output,
    itemOutputs: context.itemOutputs,
    completion: context.completion,
    dataset: context.dataset,
  };
}

export interface Run {
  result: CommanderResult;
  /** The commander's context as each model turn started (index 0 = turn 1). */
  contexts: CommanderContext[];
  /** Every executeTool input, in start order. */
  executed: ExecuteToolInput[];
  /** Model turn inputs. */
  turns: ModelTurnInput[];
}

export interface RunOptions extends Partial<CommanderInput> {
  executeTool?: (input: ExecuteToolInput) => Promise<ToolOutcome>;
  /** The step gate for internal calls. */
  toolGate?: (input: ToolGateInput) => Promise<void>;
  /** Effect implementations, as the wiring would provide them. */
  actions?: Parameters<typeof commanderMachine.provide>[0]['actions'];
  /** Guard implementations to replace (a rule's guard removed, in the rule tests). */
  guards?: Parameters<typeof commanderMachine.provide>[0]['guards'];
}

const noEffects: CommanderEffects = {
  planUpdated: () => undefined,
  toolCalled: () => undefined,
  toolCompleted: () => undefined,
  outputSubmitted: () => undefined,
  messageAppended: () => undefined,
  contextCut: () => undefined,
};

/**
 * A commander's environment for machine tests: the model turn given, a gate that holds
 * nothing, tools that answer ok, effects recorded nowhere (tests provide the emit actions).
 */
export function scriptedEnvironment(
  parts: Partial<Omit<CommanderEnvironment, 'modelTurn'>> & Pick<CommanderEnvironment, 'modelTurn'>,
): CommanderEnvironment {
  return {
    toolGate: async () => undefined,
    routeGate: async () => undefined,
    failureGate: async () => undefined,
    executeTool: async () => ({ content: '{"status":"ok"}', isError: false }),
    effects: noEffects,
    ...parts,
  };
}

/**
 * Runs a commander against scripted replies. After the script ends, the model turn fails,
 * so a test that expects completion sees exactly where the script stopped.
 */
export async function runCommander(
  replies: ModelTurnOutput[],
  options: RunOptions = {},
): Promise<Run> {
  const script = [...replies];
  const contexts: CommanderContext[] = [];
  const executed: ExecuteToolInput[] = [];
  const turns: ModelTurnInput[] = [];
  const { executeTool, actions, guards, toolGate, ...input } = options;
  const machine = commanderMachine.provide({
    ...(actions === undefined ? {} : { actions }),
    ...(guards === undefined ? {} : { guards }),
  });
  const environment = scriptedEnvironment({
    modelTurn: async (turn) => {
      // Let the commander settle in awaitingModel before reading its snapshot.
      await Promise.resolve();
      contexts.push(actor.getSnapshot().context);
      turns.push(turn);
      const next = script.shift();
      if (next === undefined) throw new Error('script exhausted');
      return next;
    },
    toolGate: async (gateInput) => toolGate?.(gateInput),
    executeTool: async (toolInput) => {
      executed.push(toolInput);
      if (executeTool === undefined) return { content: '{"status":"ok"}', isError: false };
      return executeTool(toolInput);
    },
  });
  const actor = createActor(machine, {
    input: {
      task: plainTask,
      messages: [{ role: 'user', parts: [{ type: 'text', text: 'Do the task.' }] }],
      environment,
      ...input,
    },
  });
  actor.start();
  const result = await toPromise(actor);
  return { result, contexts, executed, turns };
}

/** Every tool result in a conversation, in order. */
export function toolResults(messages: Message[]): ToolResultPart[] {
  return messages.flatMap((message) => message.parts.filter((part) => part.type === 'tool_result'));
}

/** The parsed JSON of every tool result, in order. */
export function resultBodies(messages: Message[]): unknown[] {
  return toolResults(messages).map((part) => JSON.parse(part.content as string) as unknown);
}

/** The results given in the user message that follows model turn `turn` (1-based). */
export function resultsAfterTurn(messages: Message[], turn: number): unknown[] {
  const assistantIndexes = messages.flatMap((message, index) =>
    message.role === 'assistant' ? [index] : [],
  );
  const at = assistantIndexes[turn - 1];
  const next = at === undefined ? undefined : messages[at + 1];
  if (next === undefined) return [];
  return next.parts.flatMap((part) =>
    part.type === 'tool_result' ? [JSON.parse(part.content as string) as unknown] : [],
  );
}
