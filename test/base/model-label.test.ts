import { describe, expect, it } from 'vitest';
import { modelLabel } from '../../src/base/model-label.ts';

describe('modelLabel', () => {
  it('names a model by its block label and key, not its API name', () => {
    const model = {
      provider: 'openai',
      config: 'openai',
      key: 'fast',
      apiName: 'gpt-5-mini',
    } as const;
    expect(modelLabel(model)).toBe('openai.fast');
  });
});
