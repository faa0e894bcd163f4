/** A multi-turn tool conversation shared by the Anthropic converter and client tests. */
import type { Message, ResolvedModel, ToolDefinition } from '../../../src/models/model-types.ts';

/** 1×1 transparent PNG. */
export const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
/** The first bytes of a PDF, base64. */
export const PDF_BASE64 = 'JVBERi0xLjQKJcfsj6IKMSAwIG9iago8PC9UeXBlL0NhdGFsb2c+PgplbmRvYmoK';

export const SIGNATURE =
  'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds7JpHE5Bqb4uRi+ZTp3g=';

export const WEATHER_TOOL: ToolDefinition = {
  name: 'get_weather',
  description: 'Current weather for a city.',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string', description: 'City name' } },
    required: ['city'],
    additionalProperties: false,
  },
};

export const SONNET: ResolvedModel = {
  provider: 'anthropic',
  config: 'claude',
  key: 'claude_sonnet_4_5',
  apiName: 'claude-sonnet-4-5-20250929',
  apiKey: 'sk-ant-api03-test-key-0123456789',
  promptCaching: true,
  reasoningCapable: true,
};

/** User asks with an image and a PDF; the model thinks and calls two tools; both results come back. */
export const CONVERSATION: Message[] = [
  {
    role: 'user',
    parts: [
      { type: 'text', text: 'Weather in Paris and Oslo? See the attached map and forecast.' },
      { type: 'image', mediaType: 'image/png', data: PNG_BASE64 },
      {
        type: 'document',
        mediaType: 'application/pdf',
        data: PDF_BASE64,
        filename: 'forecast.pdf',
      },
    ],
  },
  {
    role: 'assistant',
    parts: [
      {
        type: 'reasoning',
        provider: 'anthropic',
        text: 'I will call get_weather twice.',
        state: { signature: SIGNATURE },
      },
      { type: 'text', text: 'Let me check both cities.' },
      { type: 'tool_call', id: 'toolu_paris', name: 'get_weather', arguments: '{"city":"Paris"}' },
      { type: 'tool_call', id: 'toolu_oslo', name: 'get_weather', arguments: '{"city":"Oslo"}' },
    ],
  },
  {
    role: 'user',
    parts: [
      {
        type: 'tool_result',
        callId: 'toolu_paris',
        name: 'get_weather',
        content: '{"temp_c":18}',
        isError: false,
      },
    ],
  },
  {
    role: 'user',
    parts: [
      {
        type: 'tool_result',
        callId: 'toolu_oslo',
        name: 'get_weather',
        content: 'city not found',
        isError: true,
      },
    ],
  },
];
