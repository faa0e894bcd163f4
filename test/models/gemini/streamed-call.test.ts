import { describe, expect, it } from 'vitest';
import { StreamedCallArguments } from '../../../src/models/gemini/streamed-call.ts';

describe('StreamedCallArguments', () => {
  it('joins a string continued across pieces and reads quoted keys', () => {
    const collected = new StreamedCallArguments({ units: 'metric' });
    collected.apply([
      { jsonPath: "$['place name']", stringValue: 'Trond', willContinue: true },
      { jsonPath: "$['place name']", stringValue: 'heim' },
      { jsonPath: '$.hours[1]', numberValue: 6 },
    ]);
    expect(collected.arguments()).toBe(
      '{"units":"metric","place name":"Trondheim","hours":[null,6]}',
    );
    expect(collected.unreadPaths).toEqual([]);
  });

  it('a string not said to continue is replaced, not extended', () => {
    const collected = new StreamedCallArguments(undefined);
    collected.apply([
      { jsonPath: '$.city', stringValue: 'Oslo' },
      { jsonPath: '$.city', stringValue: 'Bergen' },
    ]);
    expect(collected.arguments()).toBe('{"city":"Bergen"}');
  });

  it('keeps the paths it cannot read', () => {
    const collected = new StreamedCallArguments(undefined);
    collected.apply([
      { jsonPath: 'city', stringValue: 'Oslo' },
      { jsonPath: '$..city', stringValue: 'Oslo' },
      { jsonPath: '$', stringValue: 'Oslo' },
    ]);
    expect(collected.arguments()).toBe('{}');
    expect(collected.unreadPaths).toEqual(['city', '$..city', '$']);
  });
});
