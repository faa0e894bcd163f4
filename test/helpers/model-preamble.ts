/**
 * The head every scripted test project's main.hcl starts with: an `api_key` (secret) and a
 * `base_url` variable and a model block `main` of one provider, so a test points the project
 * at its scripted server with `vars: { api_key, base_url }` and writes only its missions.
 */

export type TestProvider = 'openai' | 'anthropic' | 'gemini' | 'ollama';

/** The model block and a model reference for each provider, pointed at the scripted server. */
export function modelSetup(provider: TestProvider): { block: string; model: string } {
  switch (provider) {
    case 'openai':
      return {
        block: `model "main" {\n  provider = "openai"\n  api_key = vars.api_key\n  base_url = vars.base_url\n}`,
        model: 'models.main.gpt_4o_mini',
      };
    case 'anthropic':
      return {
        block: `model "main" {\n  provider = "anthropic"\n  api_key = vars.api_key\n  base_url = vars.base_url\n}`,
        model: 'models.main.claude_haiku_4_5',
      };
    case 'gemini':
      return {
        block: `model "main" {\n  provider = "gemini"\n  api_key = vars.api_key\n  base_url = vars.base_url\n}`,
        model: 'models.main.gemini_2_0_flash',
      };
    case 'ollama':
      return {
        block: `model "main" {\n  provider = "ollama"\n  base_url = vars.base_url\n  aliases = { small = "qwen3:8b" }\n}`,
        model: 'models.main.small',
      };
  }
}

/** The wire protocol each provider speaks to the scripted server (Ollama: OpenAI's). */
export const PROTOCOL = {
  openai: 'openai',
  anthropic: 'anthropic',
  gemini: 'gemini',
  ollama: 'openai',
} as const;

const VARIABLES = 'variable "api_key" {\n  secret = true\n}\nvariable "base_url" {\n}\n';

/** The variables and the provider's `model "main"` block (10 lines for openai), ending in a newline. */
export function modelPreamble(provider: TestProvider = 'openai'): string {
  return `${VARIABLES}${modelSetup(provider).block}\n`;
}

/** A whole main.hcl: the provider's preamble, then `hcl` with each `MODEL` made the model reference. */
export function projectText(hcl: string, provider: TestProvider = 'openai'): string {
  return `${modelPreamble(provider)}${hcl.replaceAll('MODEL', modelSetup(provider).model)}`;
}
