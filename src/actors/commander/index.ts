/** The commander wiring: actor, external tools, question forks and the registry of finished commanders. */
export { runCommander } from './commander-actor.ts';
export type { CommanderLaunch } from './commander-actor.ts';
export { commanderEffects } from './commander-events.ts';
export { CommanderForks, MAX_FORK_TURNS } from './commander-forks.ts';
export type { ForkAnswer } from './commander-forks.ts';
export { CommanderRegistry } from './commander-registry.ts';
export type { AskableAgent, CommanderRecord } from './commander-registry.ts';
export type { CommanderScope } from './commander-scope.ts';
export { askerName } from './commander-scope.ts';
export { askAgent, callAgent, resolveAskable } from './delegation-tools.ts';
export { executeCommanderTool, UnhandledToolError } from './external-tools.ts';
export {
  askCommander,
  getCommanderAnswer,
  listCommanderQuestions,
  queryTaskOutput,
} from './question-tools.ts';
