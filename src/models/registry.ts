/**
 * The built-in model registry (models.md): every hosted model sortie knows by key, the name
 * sent on the wire, whether it can reason, and its prices. Data only, plus key resolution.
 */
import type { Pricing, ProviderName } from './model-types.ts';

/** The day the names, flags and prices below were last checked (against models.md's table). */
export const LAST_VERIFIED = '2026-11-22';

/** One built-in model. Prices are USD per 1,000,000 tokens. */
export interface BuiltinModel {
  key: string;
  apiName: string;
  reasoning: boolean;
  pricing: Pricing;
}

function row(
  key: string,
  apiName: string,
  reasoning: boolean,
  input: number,
  output: number,
  cacheRead: number,
  cacheWrite: number,
): BuiltinModel {
  return { key, apiName, reasoning, pricing: { input, output, cacheRead, cacheWrite } };
}

type HostedProvider = Exclude<ProviderName, 'ollama'>;

// prettier-ignore
const BUILTIN_MODELS: Readonly<Record<HostedProvider, readonly BuiltinModel[]>> = {
  openai: [
    row('gpt_5_5', 'gpt-5.5', true, 5, 30, 0.5, 5),
    row('gpt_5_5_pro', 'gpt-5.5-pro', true, 30, 180, 3, 30),
    row('gpt_5_4', 'gpt-5.4', true, 2.5, 15, 0.25, 2.5),
    row('gpt_5_4_mini', 'gpt-5.4-mini', true, 0.75, 4.5, 0.075, 0.75),
    row('gpt_5_4_nano', 'gpt-5.4-nano', true, 0.2, 1.25, 0.02, 0.2),
    row('gpt_5_4_pro', 'gpt-5.4-pro', true, 30, 180, 3, 30),
    row('gpt_5_3_codex', 'gpt-5.3-codex', true, 1.75, 14, 0.175, 1.75),
    row('gpt_5_2', 'gpt-5.2', true, 1.75, 14, 0.175, 1.75),
    row('gpt_5', 'gpt-5', true, 2.5, 15, 0.25, 2.5),
    row('gpt_5_mini', 'gpt-5-mini', true, 0.75, 4.5, 0.075, 0.75),
    row('gpt_5_nano', 'gpt-5-nano', true, 0.2, 1.25, 0.02, 0.2),
    row('o3', 'o3', true, 10, 40, 2.5, 10),
    row('o4_mini', 'o4-mini', true, 1.1, 4.4, 0.55, 1.1),
    row('o3_mini', 'o3-mini', true, 1.1, 4.4, 0.55, 1.1),
    row('gpt_4_1', 'gpt-4.1', false, 2, 8, 0.5, 2),
    row('gpt_4_1_mini', 'gpt-4.1-mini', false, 0.4, 1.6, 0.1, 0.4),
    row('gpt_4_1_nano', 'gpt-4.1-nano', false, 0.1, 0.4, 0.025, 0.1),
    row('gpt_4o', 'gpt-4o', false, 2.5, 10, 1.25, 2.5),
    row('gpt_4o_mini', 'gpt-4o-mini', false, 0.15, 0.6, 0.075, 0.15),
    row('gpt_4_turbo', 'gpt-4-turbo', false, 10, 30, 10, 10),
    row('o1', 'o1', false, 15, 60, 7.5, 15),
  ],
  gemini: [
    row('gemini_3_1_pro_preview', 'gemini-3.1-pro-preview', true, 2, 12, 0.2, 2),
    row('gemini_3_1_flash_lite_preview', 'gemini-3.1-flash-lite-preview', true, 0.25, 1.5, 0.025, 0.25),
    row('gemini_3_flash_preview', 'gemini-3-flash-preview', true, 0.5, 3, 0.05, 0.5),
    row('gemini_2_5_pro', 'gemini-2.5-pro', true, 1.25, 10, 0.125, 1.25),
    row('gemini_2_5_flash', 'gemini-2.5-flash', true, 0.3, 2.5, 0.03, 0.3),
    row('gemini_2_5_flash_lite', 'gemini-2.5-flash-lite', true, 0.1, 0.4, 0.01, 0.1),
    row('gemini_2_0_flash', 'gemini-2.0-flash', false, 0.1, 0.4, 0.025, 0.1),
    row('gemini_2_0_flash_lite', 'gemini-2.0-flash-lite', false, 0.075, 0.3, 0.01875, 0.075),
    row('gemini_2_0_flash_exp', 'gemini-2.0-flash-exp', false, 0.1, 0.4, 0.025, 0.1),
  ],
  anthropic: [
    row('claude_opus_4_7', 'claude-opus-4-7', true, 5, 25, 0.5, 6.25),
    row('claude_opus_4_6', 'claude-opus-4-6', true, 5, 25, 0.5, 6.25),
    row('claude_opus_4_5', 'claude-opus-4-5-20251101', true, 5, 25, 0.5, 6.25),
    row('claude_sonnet_4_6', 'claude-sonnet-4-6', true, 3, 15, 0.3, 3.75),
    row('claude_sonnet_4_5', 'claude-sonnet-4-5-20250929', true, 3, 15, 0.3, 3.75),
    row('claude_sonnet_4', 'claude-sonnet-4-20250514', true, 3, 15, 0.3, 3.75),
    row('claude_opus_4', 'claude-opus-4-20250514', true, 15, 75, 1.5, 18.75),
    row('claude_haiku_4_5', 'claude-haiku-4-5-20251001', true, 1, 5, 0.1, 1.25),
  ],
};

/** The built-in model with this HCL key, if the provider has one (never for `ollama`). */
export function findBuiltinModel(provider: ProviderName, key: string): BuiltinModel | undefined {
  if (provider === 'ollama') return undefined;
  return BUILTIN_MODELS[provider].find((model) => model.key === key);
}

/** Every built-in key of a provider, in registry order (none for `ollama`). */
export function builtinModelKeys(provider: ProviderName): string[] {
  return provider === 'ollama' ? [] : BUILTIN_MODELS[provider].map((model) => model.key);
}
