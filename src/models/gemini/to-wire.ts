/**
 * A sortie model request → the parameters of `models.generateContentStream` (pure): system
 * instruction, contents, function declarations in Gemini's schema dialect and the thinking
 * config per the reasoning mapping (models.md). Gemini caches prompts by itself.
 */
import type {
  FunctionDeclaration,
  GenerateContentConfig,
  GenerateContentParameters,
} from '@google/genai';
import type {
  ModelRequest,
  ReasoningLevel,
  ResolvedModel,
  ToolDefinition,
} from '../model-types.ts';
import { perObject } from '../../base/per-object.ts';
import { toGeminiSchema } from './schema.ts';
import { toGeminiContents } from './to-wire-contents.ts';

/** `thinkingBudget` per reasoning level (models.md, reasoning mapping). */
export const GEMINI_THINKING_BUDGETS: Readonly<Record<ReasoningLevel, number>> = {
  low: 2048,
  medium: 8192,
  high: 24576,
};

/** A tool as a function declaration; a schema without properties is left out, as the API wants. */
export function toFunctionDeclaration(tool: ToolDefinition): FunctionDeclaration {
  const declaration: FunctionDeclaration = { name: tool.name, description: tool.description };
  const parameters = toGeminiSchema(tool.parameters);
  const properties = parameters.properties;
  if (properties !== undefined && Object.keys(properties).length > 0)
    declaration.parameters = parameters;
  return declaration;
}

/** `toFunctionDeclaration`, once per definition object: an actor offers the same tools every turn. */
const functionDeclaration = perObject(toFunctionDeclaration);

/** Builds the request for `model`. */
export function toGeminiRequest(
  request: ModelRequest,
  model: ResolvedModel,
): GenerateContentParameters {
  const config: GenerateContentConfig = {};
  if (request.system !== '') config.systemInstruction = { parts: [{ text: request.system }] };
  if (request.tools.length > 0)
    config.tools = [{ functionDeclarations: request.tools.map(functionDeclaration) }];
  if (request.maxOutputTokens !== undefined) config.maxOutputTokens = request.maxOutputTokens;
  if (model.reasoningCapable && request.reasoning !== undefined) {
    config.thinkingConfig = {
      thinkingBudget: GEMINI_THINKING_BUDGETS[request.reasoning],
      includeThoughts: true,
    };
  }
  return { model: model.apiName, contents: toGeminiContents(request.messages), config };
}
