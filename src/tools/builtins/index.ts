export type { AgentTool, AgentToolContext, ToolOutcome } from './agent-tool.ts';
export { errorOutcome, okOutcome, textOutcome } from './agent-tool.ts';
export { executeHttpRequest, DEFAULT_HTTP_TIMEOUT_MS, MAX_REDIRECTS } from './http-request.ts';
export type { HttpMethod, HttpRequest, HttpResponse, HttpResult } from './http-request.ts';
export type { HttpFailure, HttpFailureKind } from './http-failure.ts';
export { MAX_BODY_BYTES } from './http-body.ts';
export {
  httpOutcome,
  httpGetTool,
  httpPostTool,
  httpPutTool,
  httpPatchTool,
  httpDeleteTool,
} from './http-tools.ts';
export { createCustomHttpTool } from './custom-http-tool.ts';
export type { CustomHttpToolSpec, EvaluatedHttpCall } from './custom-http-tool.ts';
export { createCurrentTimeTool, currentTimeTool, isoTimeInZone } from './current-time.ts';
export { sleepTool, MAX_SLEEP_SECONDS } from './sleep-tool.ts';
export { toolNameFromReference, findBuiltinTool } from './tool-names.ts';
export {
  createHumanAskTool,
  humanQuestionOf,
  noResponseWithin,
  HUMAN_ASK_TOOL,
  NO_HUMAN_AVAILABLE,
} from './human-ask.ts';
export type { HumanAsker, HumanQuestion } from './human-ask.ts';
