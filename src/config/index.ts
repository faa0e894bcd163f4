/** Public names of the configuration layer: HCL project → typed Config + diagnostics. */
export {
  analyzeProject,
  loadProject,
  ProjectConfigError,
  type LoadOptions,
  type ProjectAnalysis,
} from './load-project.ts';
export { decodeProject, type DecodeOptions } from './decode-project.ts';
export {
  evaluateExpression,
  evaluateTemplate,
  evaluateToString,
  interpolationText,
  EvaluationError,
  type EvaluationScope,
} from './evaluate.ts';
export { resolveModel, resolveDeferredString } from './resolve-model.ts';
export {
  requireVariables,
  variableValues,
  secretValues,
  findAgent,
  chainedMissions,
} from './requirements.ts';
export {
  mcpServersOfMission,
  mcpUrlProtocol,
  resolveMcpServer,
  type ResolvedMcpTransport,
} from './mcp-values.ts';
export { builtinCatalog, type ModelCatalog, type CatalogModel } from './model-catalog.ts';
export { missingVariableHint, findVariableValue } from './variable-values.ts';
export { ProjectNotFoundError, formatDiagnostic } from './syntax/index.ts';
export {
  DEFAULT_AGENT_MAX_TURNS,
  DEFAULT_TOOL_RESPONSE_MAX_TOKENS,
  MAX_TOOL_RESPONSE_MAX_TOKENS,
} from './decode-agent.ts';
export { DEFAULT_TOOL_TIMEOUT_SECONDS } from './decode-tool.ts';
export { ITERATOR_DEFAULTS } from './decode-iterator.ts';
export type * from './config-types.ts';
