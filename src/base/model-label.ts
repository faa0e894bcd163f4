import type { ModelReference } from './events.ts';

/**
 * How a model is named in a run's texts and tallies: its block label and key (`openai.fast`),
 * the HCL address without `models.`, unique within a project as the API name need not be.
 */
export function modelLabel(model: Pick<ModelReference, 'config' | 'key'>): string {
  return `${model.config}.${model.key}`;
}
