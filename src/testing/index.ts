/**
 * `sortie/testing`: the scripted model server users test their missions with
 * (see docs/testing.md).
 */
export {
  ScriptedModelServer,
  ScriptNotDoneError,
  type RespondRequest,
  type ScriptedModelServerOptions,
} from './server.ts';
export type {
  Protocol,
  RecordedRequest,
  ScriptTurn,
  ScriptedError,
  ScriptedToolCall,
  ScriptedUsage,
  TurnMatch,
} from './script.ts';
export type { ProtocolHandler, RequestSummary, TurnContext } from './protocol.ts';
export {
  defaultProtocolHandlers,
  openaiProtocol,
  anthropicProtocol,
  geminiProtocol,
} from './protocols/index.ts';
export { matchesTurn, pickTurn } from './turn-matching.ts';
export { splitSseFrames } from './respond.ts';
