export {
  commanderSystemPrompt,
  itemObjectiveMessage,
  personalityHeadline,
  sequentialObjectiveMessage,
} from './commander-prompt.ts';
export { estimateTokens, harnessTokens, UnknownTaskError } from './harness-tokens.ts';
