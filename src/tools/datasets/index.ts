export { DatasetStore, MAX_ITEM_PROBLEMS } from './dataset-store.ts';
export type { DatasetDeclaration, DatasetWrite } from './dataset-store.ts';
export { datasetToolsFor } from './dataset-tools.ts';
