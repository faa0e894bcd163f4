export {
  HEADLINE_MAX_CHARS,
  commanderSystemPrompt,
  itemObjectiveMessage,
  personalityHeadline,
  sequentialObjectiveMessage,
} from './commander-prompt.ts';
export type {
  CommanderPromptSpec,
  PromptAgent,
  PromptDependency,
  PromptRoute,
} from './commander-prompt.ts';
export { fillTemplate } from './fill.ts';
export {
  BYTES_PER_TOKEN,
  estimateTokens,
  harnessTokens,
  UnknownTaskError,
} from './harness-tokens.ts';
export { taskAgents, taskPromptSpec, taskShape } from './task-prompt-spec.ts';
export type { AncestorFacts } from './task-prompt-spec.ts';
