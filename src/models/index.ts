/** Public names of the models layer: one client interface, the registry, usage, cost and retries. */
export type * from './model-types.ts';
export type { ClientOptions } from './client-options.ts';
export { createAdapter, createModelClient } from './create-client.ts';
export { withRetry, backoffDelay, type RetryNotice, type RetryOptions } from './retry.ts';
export {
  isRetryableStatus,
  parseRetryAfter,
  classifyNetworkError,
  type NetworkFailure,
} from './http-retry.ts';
export {
  ProviderTimeoutError,
  ProviderNetworkError,
  TruncatedStreamError,
  failureReason,
  type FailureReason,
  type TimeoutKind,
} from './provider-errors.ts';
export {
  DEFAULT_TIMEOUTS,
  createStreamDeadlines,
  resolveTimeouts,
  type ModelTimeouts,
} from './timeouts.ts';
export { redactKey } from './redact-key.ts';
export {
  LAST_VERIFIED,
  builtinModelKeys,
  findBuiltinModel,
  findBuiltinModelByApiName,
  reasoningWarning,
  type BuiltinModel,
} from './registry.ts';
export {
  addUsage,
  emptyUsage,
  totalTokens,
  normalizeOpenAIUsage,
  normalizeAnthropicUsage,
  normalizeGeminiUsage,
} from './usage.ts';
export { PICO_PER_DOLLAR, dollarsToPico, picoToDollars, usageCost, type TurnCost } from './cost.ts';
export { CostLedger, type CostTotal, type TurnRecord } from './cost-ledger.ts';
