/** `call_agent` and `ask_agent` for a commander (tools.md, "Delegation"). */
import type { AgentCallResult, AgentSession } from '../contracts.ts';
import type { AskableAgent } from './commander-registry.ts';
import type { CommanderScope } from './commander-scope.ts';
import type { ToolOutcome } from '../../tools/builtins/agent-tool.ts';
import type { InvokedBy } from '../run-to-end.ts';
import { errorReply, okReply } from './tool-reply.ts';

/** This commander's session of `name`, made on first use. */
function sessionFor(scope: CommanderScope, name: string): AgentSession | undefined {
  const existing = scope.sessions.get(name);
  if (existing !== undefined) return existing;
  const agent = scope.agents.get(name);
  if (agent === undefined) return undefined;
  const { services, createAgentSession } = scope.runtime;
  const session = createAgentSession(services, {
    agent,
    task: scope.task,
    ...(scope.index === null ? {} : { index: scope.index }),
  });
  scope.sessions.set(name, session);
  return session;
}

/**
 * Runs the agent (a child of `by.parent`) until it answers; its conversation continues across
 * calls.
 */
export async function callAgent(
  scope: CommanderScope,
  args: Record<string, unknown>,
  by: InvokedBy,
): Promise<ToolOutcome> {
  const name = String(args.name);
  const session = sessionFor(scope, name);
  if (session === undefined) {
    const available = [...scope.agents.keys()].join(', ') || 'none';
    return errorReply(`agent "${name}" is not available to this task; available: ${available}`);
  }
  return agentReply(name, await session.call(String(args.task), by));
}

/**
 * Resumed run: finishes a `call_agent` a restart interrupted. With `opening` (the call's task
 * message in the agent's restored conversation) the agent goes on from where it was; without
 * it the call had not reached the agent and is made now.
 */
export async function resumeAgentCall(
  scope: CommanderScope,
  args: Record<string, unknown>,
  opening: number | undefined,
  by: InvokedBy,
): Promise<ToolOutcome> {
  const name = String(args.name);
  const session = scope.sessions.get(name);
  if (opening === undefined || session === undefined) return callAgent(scope, args, by);
  return agentReply(name, await session.resumeCall(opening, by));
}

function agentReply(name: string, reply: AgentCallResult): ToolOutcome {
  if (!reply.ok) return errorReply(`agent "${name}" failed: ${reply.reason}`);
  // A long answer is stored as the agent's text (not its JSON-escaped envelope) to page through.
  return {
    ...okReply({ agent: name, result: reply.result }),
    payload: { text: reply.result, beside: { agent: name } },
  };
}

/** The commander's own finished agents, then the agents of its ancestors' commanders. */
function askableAgents(scope: CommanderScope): AskableAgent[] {
  const own: AskableAgent[] = [...scope.sessions]
    .filter(([, session]) => session.finishedOnce)
    .map(([name, session]) => ({ qualifiedId: name, name, session }));
  return [...own, ...scope.runtime.commanders.askableAgents(scope.ancestors)];
}

/** Finds the agent `id` names: a bare name (own agents first) or a qualified `task[i]/agent`. */
export function resolveAskable(
  scope: CommanderScope,
  id: string,
): { ok: true; agent: AskableAgent } | { ok: false; error: string } {
  const candidates = askableAgents(scope);
  // Own agents are listed by bare name, so an exact id match covers both forms.
  const exact = candidates.find((candidate) => candidate.qualifiedId === id);
  if (exact !== undefined) return { ok: true, agent: exact };
  const matches = candidates.filter((candidate) => candidate.name === id);
  if (matches.length === 1) return { ok: true, agent: matches[0] as AskableAgent };
  if (matches.length > 1) {
    const ids = matches.map((match) => match.qualifiedId).join(', ');
    return { ok: false, error: `agent "${id}" is ambiguous; use one of: ${ids}` };
  }
  const known = candidates.map((candidate) => candidate.qualifiedId).join(', ') || 'none';
  return {
    ok: false,
    error: `no agent "${id}" has worked for this task or its dependencies; available: ${known}`,
  };
}

/** Answers from the agent's existing conversation, with no tools offered. */
export async function askAgent(
  scope: CommanderScope,
  args: Record<string, unknown>,
  signal: AbortSignal,
): Promise<ToolOutcome> {
  const id = String(args.agent_id);
  const found = resolveAskable(scope, id);
  if (!found.ok) return errorReply(found.error);
  const reply = await found.agent.session.ask(String(args.question), signal);
  if (!reply.ok) return errorReply(`agent "${id}" failed: ${reply.reason}`);
  return okReply({ agent: id, answer: reply.result });
}
