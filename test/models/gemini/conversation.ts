/** A multi-turn tool conversation shared by the Gemini converter and client tests. */
import type { Message, ResolvedModel, ToolDefinition } from '../../../src/models/model-types.ts';

/** 1×1 transparent PNG. */
export const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
/** The first bytes of a PDF, base64. */
export const PDF_BASE64 = 'JVBERi0xLjQKJcfsj6IKMSAwIG9iago8PC9UeXBlL0NhdGFsb2c+PgplbmRvYmoK';

export const THOUGHT_SIGNATURE =
  'CiQB0e2Kb7QnJ0sP1gq7c8eQm2x4lqW8pTqkP1KQ4dWm9w0Cw8YKbAHR7YpvR2vJmE3';

export const WEATHER_TOOL: ToolDefinition = {
  name: 'get_weather',
  description: 'Current weather for a city.',
  parameters: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: {
      city: { type: 'string', description: 'City name' },
      unit: { type: ['string', 'null'], enum: ['celsius', 'fahrenheit', null] },
    },
    required: ['city'],
    additionalProperties: false,
  },
};

export const FLASH: ResolvedModel = {
  provider: 'gemini',
  config: 'google',
  key: 'gemini_2_5_flash',
  apiName: 'gemini-2.5-flash',
  apiKey: 'AIzaSyTestKey0123456789abcdefghijklmno',
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
      { type: 'reasoning', provider: 'gemini', text: 'I will call get_weather twice.' },
      {
        type: 'tool_call',
        id: 'call_a1_0',
        name: 'get_weather',
        arguments: '{"city":"Paris"}',
        state: { signature: THOUGHT_SIGNATURE },
      },
      { type: 'tool_call', id: 'call_a1_1', name: 'get_weather', arguments: '{"city":"Oslo"}' },
    ],
  },
  {
    role: 'user',
    parts: [
      {
        type: 'tool_result',
        callId: 'call_a1_0',
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
        callId: 'call_a1_1',
        name: 'get_weather',
        content: 'city not found',
        isError: true,
      },
    ],
  },
];
