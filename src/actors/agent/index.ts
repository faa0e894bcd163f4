/** Agent sessions: one agent's conversation (and question fork) inside one commander. */
export { createAgentSession } from './agent-session.ts';
export { AgentToolbox, type ToolboxSources } from './agent-toolbox.ts';
export { executeAgentTool, outcomeText, type AgentToolRunner } from './execute-agent-tool.ts';
export { agentSystemPrompt, type AgentPromptContext } from './system-prompt.ts';
