export { DatasetStore, MAX_ITEM_PROBLEMS } from './dataset-store.ts';
export type { DatasetDeclaration, DatasetListener, DatasetWrite } from './dataset-store.ts';
export { datasetToolsFor, MAX_SAMPLE_ITEMS } from './dataset-tools.ts';
