export { toolNameFromReference } from './tool-names.ts';
