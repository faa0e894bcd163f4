/** The Gemini API adapter, its pure converters and the JSON Schema → Gemini schema conversion. */
export { createGeminiClient } from './client.ts';
export { googleErrorMessage, toGeminiProviderError } from './errors.ts';
export { mapFinishReason as mapGeminiFinishReason } from './from-wire.ts';
export { toGeminiSchema } from './schema.ts';
export {
  fromGeminiResponse,
  GeminiStreamAccumulator,
  type GeminiChunk,
} from './stream-accumulator.ts';
export { GEMINI_THINKING_BUDGETS, toFunctionDeclaration, toGeminiRequest } from './to-wire.ts';
export { toGeminiContents } from './to-wire-contents.ts';
