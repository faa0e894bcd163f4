/**
 * The mission a chat runs (`sortie chat AGENT`): made from the project's agent, not declared
 * in HCL, so that a chat gets the services, checks, journal and run index of any run.
 */
import type { ChatRoot } from '../actors/contracts.ts';
import { UsageError } from '../base/errors.ts';
import type { ChatStart } from '../base/events.ts';
import { didYouMean } from '../base/suggest.ts';
import type { AgentConfig, Config, MissionConfig } from '../config/config-types.ts';

/** The name of a chat's mission; the project's config for the chat holds it under this name. */
export const CHAT_MISSION = 'chat';

/** The project as a chat with one of its agents sees it. */
export interface ChatProject {
  /** The project's config with the chat's mission in place of any mission of that name. */
  config: Config;
  mission: MissionConfig;
  agent: AgentConfig;
}

/**
 * The chat's mission for the agent named `agentName`: a project-wide agent, or one declared
 * inside a mission (whose shared memories and packets the chat then reads too). An unknown
 * name is a usage error naming the closest agent.
 */
export function chatProject(config: Config, agentName: string): ChatProject {
  const found = findAnyAgent(config, agentName);
  if (found === undefined) {
    const names = agentNames(config);
    throw new UsageError(
      `agent "${agentName}" does not exist${didYouMean(agentName, names)}`,
      names.length === 0 ? 'the project declares no agent' : `agents: ${names.join(', ')}`,
    );
  }
  const { agent, owner } = found;
  const mission: MissionConfig = {
    name: CHAT_MISSION,
    commander: { model: agent.model, toolResponseMaxTokens: agent.toolResponseMaxTokens },
    agents: [agent.name],
    scopedAgents: new Map([[agent.name, agent]]),
    datasets: new Map(),
    tasks: new Map(),
    memories: owner?.memories ?? [],
    // A chat's files live with its run, as a mission's scratchpad does.
    scratchpad: true,
    maxParallel: 1,
    schedules: [],
    packets: owner?.packets ?? [],
    span: agent.span,
  };
  const missions = new Map(config.missions);
  missions.set(CHAT_MISSION, mission);
  return { config: { ...config, missions }, mission, agent };
}

/** What a chat run starts with: its mission (no inputs), the project holding it, its root. */
export interface ChatChoice {
  mission: MissionConfig;
  inputs: Record<string, unknown>;
  config: Config;
  chat: ChatRoot;
}

/**
 * The chat a journaled run goes on with (`resume`, `fork`): the agent its journal names, made
 * into the chat's mission again from the project as it is now.
 */
export function continuedChat(config: Config, start: ChatStart): ChatChoice {
  const chat = chatProject(config, start.agent);
  return { mission: chat.mission, inputs: {}, config: chat.config, chat: { ...start } };
}

/** Every agent name of the project, sorted: project-wide ones and those inside missions. */
export function agentNames(config: Config): string[] {
  const names = new Set(config.agents.keys());
  for (const mission of config.missions.values()) {
    for (const name of mission.scopedAgents.keys()) names.add(name);
  }
  return [...names].sort();
}

function findAnyAgent(
  config: Config,
  name: string,
): { agent: AgentConfig; owner?: MissionConfig } | undefined {
  const global = config.agents.get(name);
  if (global !== undefined) return { agent: global };
  for (const mission of config.missions.values()) {
    const scoped = mission.scopedAgents.get(name);
    if (scoped !== undefined) return { agent: scoped, owner: mission };
  }
  return undefined;
}
