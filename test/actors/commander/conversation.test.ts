import { describe, expect, it } from 'vitest';
import { userText, withUserText } from '../../../src/actors/commander/conversation-helpers.ts';
import type { Message } from '../../../src/models/model-types.ts';

describe('withUserText', () => {
  it('adds the text to a trailing user message so roles keep alternating', () => {
    const results: Message = {
      role: 'user',
      parts: [
        {
          type: 'tool_result',
          callId: 'c1',
          name: 'task_complete',
          content: '{"status":"ok"}',
          isError: false,
        },
      ],
    };
    expect(
      withUserText([userText('go'), { role: 'assistant', parts: [] }, results], 'why?').at(-1),
    ).toEqual({
      role: 'user',
      parts: [...results.parts, { type: 'text', text: 'why?' }],
    });
  });

  it('appends a new user message after an assistant message', () => {
    const conversation: Message[] = [
      userText('go'),
      { role: 'assistant', parts: [{ type: 'text', text: 'ok' }] },
    ];
    expect(withUserText(conversation, 'why?')).toEqual([...conversation, userText('why?')]);
  });
});
