/** Public names of the configuration layer: HCL project → typed Config + diagnostics. */
export { analyzeProject, loadProject } from './load-project.ts';
export { decodeProject } from './decode-project.ts';
export { builtinCatalog } from './model-catalog.ts';
export type * from './config-types.ts';
