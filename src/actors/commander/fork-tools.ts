/**
 * The one tool of an `ask_commander` fork: `ask_agent` on the finished commander's own agents.
 * Any other call is refused with an error result the model can act on.
 */
import { parseToolArguments } from '../../tools/define-tool.ts';
import { askAgentTool } from '../../tools/commander/index.ts';
import type { ToolOutcome } from '../../machines/turn-types.ts';
import type { ToolCallPart, ToolDefinition } from '../../models/model-types.ts';
import type { RunServices } from '../contracts.ts';
import type { CommanderRecord } from './commander-registry.ts';
import { errorReply, okReply } from './tool-reply.ts';
import { reportToolCalled, reportToolCompleted } from '../agent/execute-agent-tool.ts';

/** The fork's tool set: `ask_agent` once one of the commander's agents has worked, else none. */
export function forkTools(record: CommanderRecord): ToolDefinition[] {
  return [...record.agents.values()].some((session) => session.finishedOnce) ? [askAgentTool] : [];
}

/**
 * Runs one call of the fork `forkId` and reports it as the fork's `tool.called` and
 * `tool.completed`: `ask_agent` through the step gate; anything else refused.
 */
export async function executeForkTool(
  services: RunServices,
  record: CommanderRecord,
  forkId: string,
  call: ToolCallPart,
  signal: AbortSignal,
): Promise<ToolOutcome> {
  const started = performance.now();
  reportToolCalled(services.bus, forkId, call);
  const outcome = await forkCall(services, record, forkId, call, signal);
  reportToolCompleted(services.bus, forkId, call, outcome, started);
  return outcome;
}

async function forkCall(
  services: RunServices,
  record: CommanderRecord,
  forkId: string,
  call: ToolCallPart,
  signal: AbortSignal,
): Promise<ToolOutcome> {
  if (call.name !== askAgentTool.name) {
    return errorReply(`only ask_agent is available while answering questions`);
  }
  const parsed = parseToolArguments(askAgentTool, call.arguments);
  if (!parsed.ok) {
    return errorReply('invalid arguments for ask_agent', { problems: parsed.problems });
  }
  await services.gate.before(
    { kind: 'tool', actor: forkId, tool: call.name, detail: services.redact(call.arguments) },
    signal,
  );
  const name = String(parsed.args.agent_id);
  const session = record.agents.get(name);
  if (session === undefined || !session.finishedOnce) {
    const names = [...record.agents.keys()].join(', ') || 'none';
    return errorReply(`agent "${name}" has not worked for this commander; available: ${names}`);
  }
  const reply = await session.ask(String(parsed.args.question), signal);
  return reply.ok
    ? okReply({ agent: name, answer: reply.result })
    : errorReply(`agent "${name}" failed: ${reply.reason}`);
}
