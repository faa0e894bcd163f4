/** The OpenAI Responses API adapter (used for `openai` and `ollama`). */
export { createOpenAIResponsesClient } from './client.ts';
export { toResponsesRequest, toInputItems, toFunctionTool } from './to-wire.ts';
export { fromResponse, stopOf } from './from-wire.ts';
export { collectResponse } from './stream.ts';
export { toProviderError, responsesApiMissingMessage } from './errors.ts';
