/**
 * The typed, resolved configuration the runtime consumes. Every reference is already checked
 * and resolved to a name; every collection keeps declaration order (Maps iterate in insertion
 * order). Expressions evaluated per run or per call (objectives, custom tool fields) are kept
 * as positioned AST nodes for `evaluate.ts`.
 */
import type { Diagnostic } from '../base/errors.ts';
import type { Pricing, ProviderName, ReasoningLevel } from '../models/model-types.ts';
import type { Expr, Span, TemplateExpr } from './ast.ts';
import type { KnownModel } from './known-models.ts';

export type { KnownModel };

/** A compiled schema (from the schema helpers or field blocks): JSON Schema plus its fields in order. */
export interface ConfigSchema {
  jsonSchema: Record<string, unknown>;
  fields: ConfigSchemaField[];
}

/** One top-level field of a schema, in declaration order. */
export interface ConfigSchemaField {
  name: string;
  /** Display type, e.g. `string`, `list(object)`. */
  type: string;
  description?: string;
  required: boolean;
  protected: boolean;
  file: boolean;
  default?: unknown;
}

/** Where a variable's value came from. */
export type VariableSource = 'cli' | 'env_prefixed' | 'env' | 'default' | 'unset';

export interface VariableConfig {
  name: string;
  secret: boolean;
  description?: string;
  /** The value, or undefined when no source supplies one (`source: 'unset'`). */
  value?: string | number | boolean;
  source: VariableSource;
  span: Span;
}

/**
 * A string that may come from a variable and so may be unknown until needed (`api_key`,
 * `base_url`): literal text and variable references, concatenated.
 */
export interface DeferredString {
  segments: Array<{ text: string } | { variable: string; span: Span }>;
}

export interface ModelBlockConfig {
  /** The block label (`models.CONFIG.KEY`). */
  name: string;
  provider: ProviderName;
  apiKey?: DeferredString;
  baseUrl?: DeferredString;
  /** KEY → API model name, in declaration order. */
  aliases: Map<string, string>;
  promptCaching: boolean;
  /** Custom prices by model key. */
  pricing: Map<string, Pricing>;
  /** Every model key this block exposes (aliases, then built-ins) with API name, flags and prices. */
  models: Map<string, KnownModel>;
  span: Span;
}

/** A checked model reference: block and key exist. */
export interface ModelRef {
  config: string;
  key: string;
}

export type BuiltinHttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Built-in tools by their reference name (`builtins.http.get`). */
export type BuiltinToolName =
  | 'builtins.http.get'
  | 'builtins.http.post'
  | 'builtins.http.put'
  | 'builtins.http.patch'
  | 'builtins.http.delete'
  | 'builtins.utils.current_time'
  | 'builtins.utils.sleep';

/** A tool an agent may use, in the order listed (`*.all` already expanded). */
export type ToolRef = { kind: 'builtin'; name: BuiltinToolName } | { kind: 'custom'; name: string };

export interface CustomToolConfig {
  name: string;
  implements: BuiltinHttpMethod;
  description: string;
  inputs?: ConfigSchema;
  /** Evaluated per call with `inputs.*` and `vars.*`. */
  url: Expr;
  headers: Array<{ name: string; value: Expr }>;
  query: Array<{ name: string; value: Expr }>;
  body?: Expr;
  timeoutSeconds: number;
  span: Span;
}

export interface AgentConfig {
  name: string;
  /** `undefined` for a global agent, else the mission that declares it. */
  mission?: string;
  model: ModelRef;
  personality: string;
  tools: ToolRef[];
  reasoning?: ReasoningLevel;
  maxTurns: number;
  /** Large-result threshold in tokens (× 4 bytes). */
  toolResponseMaxTokens: number;
  span: Span;
}

export interface MemoryConfig {
  name: string;
  description: string;
  span: Span;
}

export interface BudgetConfig {
  tokens?: number;
  dollars?: number;
}

export interface CommanderConfig {
  model: ModelRef;
  reasoning?: ReasoningLevel;
}

export interface DatasetConfig {
  name: string;
  description?: string;
  /** The item schema (declared, or the bound list input's item schema). */
  schema?: ConfigSchema;
  /** Inline items, already validated. */
  items?: unknown[];
  /** The mission input whose list value fills the dataset at run start. */
  bindTo?: string;
  span: Span;
}

export interface IteratorConfig {
  dataset: string;
  parallel: boolean;
  concurrencyLimit: number;
  /** Milliseconds between starts in the first batch. */
  startDelay: number;
  smoketest: boolean;
  maxRetries: number;
}

export interface RouteConfig {
  /** The route key: the target's name. */
  key: string;
  target: { kind: 'task' | 'mission'; name: string };
  condition: string;
}

export interface TaskConfig {
  name: string;
  /** Interpolated at run time with `inputs`, `vars` and (parallel iterations) `item`. */
  objective: TemplateExpr;
  /** The agents this task may use: its own `agents`, else the mission's. */
  agents: string[];
  dependsOn: string[];
  routes?: RouteConfig[];
  sendTo: string[];
  output?: ConfigSchema;
  iterator?: IteratorConfig;
  budget?: BudgetConfig;
  /** Only started when a route or `send_to` activates it. */
  dynamic: boolean;
  span: Span;
}

export interface MissionConfig {
  name: string;
  directive?: string;
  commander: CommanderConfig;
  /** The mission's agent list (tasks without `agents` use it). */
  agents: string[];
  /** Agents declared inside this mission. */
  scopedAgents: Map<string, AgentConfig>;
  inputs?: ConfigSchema;
  datasets: Map<string, DatasetConfig>;
  tasks: Map<string, TaskConfig>;
  /** Shared memories (slot = label). */
  memories: string[];
  memory?: { description: string };
  scratchpad: boolean;
  budget?: BudgetConfig;
  span: Span;
}

/** A loaded project. */
export interface Config {
  /** Absolute project root. */
  root: string;
  /** Loaded files relative to the root, sorted. */
  files: string[];
  variables: Map<string, VariableConfig>;
  models: Map<string, ModelBlockConfig>;
  tools: Map<string, CustomToolConfig>;
  /** Global agents. */
  agents: Map<string, AgentConfig>;
  memories: Map<string, MemoryConfig>;
  missions: Map<string, MissionConfig>;
  /** Warnings found while loading (errors throw). */
  warnings: Diagnostic[];
}
