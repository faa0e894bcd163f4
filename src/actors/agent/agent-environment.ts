/**
 * The environment one call of an agent session gives the agent machine: its model turns (the
 * session's model, system prompt and tools), the step gate and its tools, each under the signal
 * of the machine's actor that runs it (the session stops the machine when its call is cancelled,
 * which aborts those signals).
 */
import type { AgentEnvironment, AgentToolInput } from '../../machines/agent.machine.ts';
import type { ModelTurnInput, ModelTurnOutput, ToolOutcome } from '../../machines/turn-types.ts';
import type {
  Message,
  ReasoningLevel,
  ResolvedModel,
  ToolCallPart,
  ToolDefinition,
} from '../../models/model-types.ts';
import type { EventBus } from '../../runtime/event-bus.ts';
import type { RunModelTurn } from '../contracts.ts';
import { executeAgentTool, holdAgentTool, type AgentToolRunner } from './execute-agent-tool.ts';
import type { FailureGateInput } from '../../machines/failure-gate.ts';
import { holdFailedResults } from '../gate-holds.ts';

/** The session's prompt parts, read per turn (they change as skills load and results are stored). */
export interface SessionPrompts {
  /** The system prompt for a conversation with these skills loaded. */
  systemFor(messages: readonly Message[], loadedSkills: readonly string[]): string;
  /** The tools offered with these skills loaded (result tools join after an interception). */
  toolsFor(loadedSkills: readonly string[] | undefined): ToolDefinition[];
}

/** What one session's model turns need. */
export interface SessionTurns {
  runModelTurn: RunModelTurn;
  /** The task the agent works for (budgets). */
  task: string;
  model: ResolvedModel;
  reasoning: ReasoningLevel | undefined;
  /** False: the provider is asked for one call per reply too (`parallel_tool_calls`). */
  parallelToolCalls: boolean;
  prompts: SessionPrompts;
}

/** One call's environment (see the file comment). */
export class SessionEnvironment implements AgentEnvironment {
  readonly conversation: string;
  readonly bus: EventBus;

  constructor(
    private readonly turns: SessionTurns,
    private readonly runner: AgentToolRunner,
  ) {
    this.conversation = runner.actor;
    this.bus = runner.bus;
  }

  async modelTurn(input: ModelTurnInput, signal: AbortSignal): Promise<ModelTurnOutput> {
    const { turns } = this;
    const { response } = await turns.runModelTurn({
      actor: this.conversation,
      task: turns.task,
      model: turns.model,
      ...(turns.reasoning !== undefined ? { reasoning: turns.reasoning } : {}),
      system: turns.prompts.systemFor(input.messages, input.loadedSkills ?? []),
      messages: input.messages,
      tools: turns.prompts.toolsFor(input.loadedSkills),
      ...(turns.parallelToolCalls ? {} : { parallelToolCalls: false }),
      signal,
    });
    return response;
  }

  holdCall(call: ToolCallPart, signal: AbortSignal): Promise<void> {
    return holdAgentTool(this.runner, call, signal);
  }

  executeTool(input: AgentToolInput, signal: AbortSignal): Promise<ToolOutcome> {
    return executeAgentTool(this.runner, input.call, signal, {
      ...(input.answer === undefined ? {} : { answer: input.answer }),
      loadedSkills: input.loadedSkills,
    });
  }

  holdFailures(input: FailureGateInput, signal: AbortSignal): Promise<void> {
    const { gate, actor, redact } = this.runner;
    return holdFailedResults({ gate, actor, redact }, input.failures, signal);
  }
}
