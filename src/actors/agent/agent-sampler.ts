/**
 * An agent's model as its MCP servers' sampling uses it: each request is a model turn of the
 * agent (gate, budget, events, tokens and cost on the agent and its task), with no tools and
 * outside the agent's conversation, which it neither reads nor changes.
 */
import type { ReasoningLevel, ResolvedModel } from '../../models/model-types.ts';
import type { ModelSampler } from '../../tools/builtins/agent-tool.ts';
import type { RunModelTurn } from '../contracts.ts';

/** Whose model a sampler asks: the agent's actor id, its task, and its model when asked. */
export interface SamplingAgent {
  actor: string;
  task: string;
  model(): { model: ResolvedModel; reasoning: ReasoningLevel | undefined };
}

/** The sampler of `agent`, its requests sent through the run's `runModelTurn`. */
export function agentSampler(runModelTurn: RunModelTurn, agent: SamplingAgent): ModelSampler {
  return {
    async sample(request, signal) {
      const { model, reasoning } = agent.model();
      const { response } = await runModelTurn({
        actor: agent.actor,
        task: agent.task,
        model,
        ...(reasoning !== undefined ? { reasoning } : {}),
        system: request.system,
        messages: request.messages,
        tools: [],
        maxOutputTokens: request.maxOutputTokens,
        sampling: true,
        signal,
      });
      return { message: response.message, model: response.model, stopReason: response.stopReason };
    },
  };
}
