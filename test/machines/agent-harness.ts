/**
 * The agent machine with its I/O swapped through `provide`: scripted model turns, tool calls
 * and gate holds, and its reports collected.
 */
import { fromPromise } from 'xstate';
import { agentMachine } from '../../src/machines/agent.machine.ts';
import type { AgentToolInput, EnvironmentInput } from '../../src/machines/agent-context.ts';
import type { Message, ToolCallPart, ToolResultPart } from '../../src/models/model-types.ts';
import type { FailureGateInput } from '../../src/machines/failure-gate.ts';
import type {
  ModelTurnInput,
  ModelTurnOutput,
  ToolOutcome,
} from '../../src/machines/turn-types.ts';
import type { ContextCut } from '../../src/runtime/context-window.ts';

/** The scripted side of an agent; a missing tool call answers `result of NAME`. */
export interface AgentScript {
  modelTurn: (input: ModelTurnInput, signal: AbortSignal) => Promise<ModelTurnOutput>;
  toolCall?: (input: AgentToolInput, signal: AbortSignal) => Promise<ToolOutcome>;
  toolGate?: (call: ToolCallPart, signal: AbortSignal) => Promise<void>;
  /** The hold before a round's failed results go back (resolves at once when missing). */
  failureGate?: (failures: readonly ToolResultPart[], signal: AbortSignal) => Promise<void>;
}

/** What the scripted agent reported. */
export interface AgentReports {
  appended: Message[];
  cuts: ContextCut[];
}

/** The agent machine running `script`, and the list its reports go to. */
export function scriptedAgent(script: AgentScript): {
  machine: typeof agentMachine;
  reports: AgentReports;
} {
  const reports: AgentReports = { appended: [], cuts: [] };
  const machine = agentMachine.provide({
    actors: {
      modelTurn: fromPromise<ModelTurnOutput, ModelTurnInput & EnvironmentInput>(
        ({ input, signal }) => script.modelTurn(input, signal),
      ),
      toolGate: fromPromise<void, { call: ToolCallPart } & EnvironmentInput>(
        async ({ input, signal }) => script.toolGate?.(input.call, signal),
      ),
      failureGate: fromPromise<void, FailureGateInput & EnvironmentInput>(
        async ({ input, signal }) => script.failureGate?.(input.failures, signal),
      ),
      toolCall: fromPromise<ToolOutcome, AgentToolInput & EnvironmentInput>(
        async ({ input, signal }) =>
          script.toolCall?.(input, signal) ?? {
            content: `result of ${input.call.name}`,
            isError: false,
          },
      ),
    },
    actions: {
      emitMessageAppended: (_, params) => void reports.appended.push(params.message),
      emitContextCut: (_, params) => void reports.cuts.push(params.cut),
    },
  });
  return { machine, reports };
}

/** A model that answers `replies` in order, then fails with "script exhausted". */
export function repliesInOrder(
  replies: readonly ModelTurnOutput[],
  sent: number[] = [],
): AgentScript['modelTurn'] {
  const script = [...replies];
  return async (input) => {
    sent.push(input.messages.length);
    const next = script.shift();
    if (next === undefined) throw new Error('script exhausted');
    return next;
  };
}
