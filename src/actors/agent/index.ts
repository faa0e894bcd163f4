/** Agent sessions: one agent's conversation (and question fork) inside one commander. */
export { createAgentSession } from './agent-session.ts';
export { AgentToolbox } from './agent-toolbox.ts';
export { agentSystemPrompt } from './system-prompt.ts';
