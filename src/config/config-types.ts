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
import type { SchemaField } from '../schema/json-schema.ts';
import type { McpServerConfig } from './mcp-config-types.ts';
import type { McpHostConfig, ScheduleConfig, TriggerConfig } from './serve-config-types.ts';

/** A compiled schema (from the schema helpers or field blocks): JSON Schema plus its fields in order. */
export interface ConfigSchema {
  jsonSchema: Record<string, unknown>;
  fields: ConfigSchemaField[];
}

/** One top-level field of a schema, in declaration order. */
export interface ConfigSchemaField extends SchemaField {
  /**
   * A protected mission input's value from the configuration (`input "x" { protected = true,
   * value = vars.x }`): used when the run is not given the input, which is then not required.
   */
  value?: DeferredString;
}

/** Where a variable's value came from. */
export type VariableSource = 'cli' | 'env_prefixed' | 'env' | 'default' | 'unset';

export interface VariableConfig {
  name: string;
  /**
   * Hidden in every output. Always true for an undeclared variable (`declared: false`): the
   * reference runtime's vault values are secrets, so sortie treats them as such.
   */
  secret: boolean;
  /**
   * False for `vars.NAME` used without a `variable "NAME"` block (the reference runtime's vault):
   * read like a secret variable (`--var`, `SORTIE_VAR_NAME`, `NAME`), never from a default,
   * with a load-time warning naming the missing block. `span` is then its first use.
   */
  declared: boolean;
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

/**
 * Every built-in tool by its reference name, in the order they are offered: the one list the
 * config checks `tools` against and src/tools/builtins implements. `builtins.human.ask` asks the
 * person running the mission. `builtins.dataset.*` references are accepted in `tools` but not
 * listed: every agent of a mission gets the dataset tools anyway.
 */
export const BUILTIN_TOOL_NAMES = [
  'builtins.http.get',
  'builtins.http.post',
  'builtins.http.put',
  'builtins.http.patch',
  'builtins.http.delete',
  'builtins.utils.current_time',
  'builtins.utils.sleep',
  'builtins.human.ask',
] as const;

/** A built-in tool's reference name (`builtins.http.get`). */
export type BuiltinToolName = (typeof BUILTIN_TOOL_NAMES)[number];

/**
 * Tools of an MCP server: `mcp.SERVER.all` (`tool` undefined: every tool the server lists) or
 * `mcp.SERVER.TOOL`. The server is checked at load; the tool name is NOT — verify does not start
 * servers — so it is an unresolved reference: the runtime reports a tool the server does not
 * list when the run starts, before any model request, at `span`.
 */
export interface McpToolRef {
  kind: 'mcp';
  server: string;
  tool?: string;
  span: Span;
}

/** A tool an agent (or skill) may use, in the order listed (built-in `*.all` already expanded). */
export type ToolRef =
  { kind: 'builtin'; name: BuiltinToolName } | { kind: 'custom'; name: string } | McpToolRef;

export interface CustomToolConfig {
  name: string;
  implements: BuiltinHttpMethod;
  /** Undefined when the block has none: the tool then describes itself as the built-in it wraps. */
  description?: string;
  inputs?: ConfigSchema;
  /** Evaluated per call with `inputs.*` and `vars.*`. */
  url: Expr;
  headers: Array<{ name: string; value: Expr }>;
  query: Array<{ name: string; value: Expr }>;
  body?: Expr;
  /**
   * How `body` is sent: `json` (the default), `form` (an object, URL-encoded) or `text` (a
   * string). An expression, evaluated per call like the other request fields.
   */
  contentType?: Expr;
  timeoutSeconds: number;
  span: Span;
}

/**
 * `pruning { prune_on, prune_to }`: when the conversation reaches `pruneOn` turns (a turn is a
 * model request and its answer), the oldest turns are dropped until `pruneTo` remain. Checked:
 * `0 < pruneTo < pruneOn`.
 */
export interface PruningConfig {
  pruneOn: number;
  pruneTo: number;
}

/**
 * `compaction { token_limit, turn_retention }`: when a model reply reports more than `tokenLimit`
 * input tokens, everything but the last `turnRetention` turns is replaced by one summary message.
 */
export interface CompactionConfig {
  tokenLimit: number;
  turnRetention: number;
}

/** Context management of an agent or a commander; both blocks optional, both may be given. */
export interface ContextLimits {
  /** Large-result threshold in tokens (× 4 bytes): `tool_response { max_tokens }`, default 16000. */
  toolResponseMaxTokens: number;
  pruning?: PruningConfig;
  compaction?: CompactionConfig;
}

/** A `skill "NAME"` block: instructions and tools an agent adds to its turns with `load_skill`. */
export interface SkillConfig {
  name: string;
  /** The agent declaring it (an agent-scoped skill), else undefined (a global skill). */
  agent?: string;
  /** Shown in the agent's list of skills. */
  description: string;
  /** Added to the agent's context when it loads the skill (usually `load("skills/x.md")`). */
  instructions: string;
  /** Tools the agent gains when it loads the skill. */
  tools: ToolRef[];
  span: Span;
}

export interface AgentConfig extends ContextLimits {
  name: string;
  /** `undefined` for a global agent, else the mission that declares it. */
  mission?: string;
  model: ModelRef;
  personality: string;
  tools: ToolRef[];
  /**
   * The skills this agent may load: those its `skills` list names (global or its own), in that
   * order, then its own scoped skills it does not list (they are always available).
   */
  skills: SkillConfig[];
  reasoning?: ReasoningLevel;
  maxTurns: number;
  /** `parallel_tool_calls`: the tool calls of one reply may run at the same time (default true). */
  parallelToolCalls: boolean;
  span: Span;
}

/**
 * A `packet "NAME" { path, description }` block: a read-only folder of reference files, reached
 * by agents through the file tools' slot `packet.NAME`. `.hcl` files inside it are not part of
 * the project.
 */
export interface PacketConfig {
  name: string;
  /**
   * The folder relative to the project root, `/`-separated (checked at load: inside the root,
   * not the root itself, a directory). Written relative to the declaring file, or `@/` + a path
   * from the project root.
   */
  path: string;
  description?: string;
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

export interface CommanderConfig extends ContextLimits {
  model: ModelRef;
  reasoning?: ReasoningLevel;
  /** `stall_turns`: model turns without a completed subtask that raise a stall signal. */
  stallTurns?: number;
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
  /** The packets this task names (`packets = [...]`); also in its mission's `packets`. */
  packets: string[];
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
  /**
   * `max_parallel`: how many runs of this mission `sortie serve` runs at once (default 3, as
   * in the reference runtime); more wait in its queue. A `sortie run` runs one mission and
   * does not read it.
   */
  maxParallel: number;
  /** `schedule` blocks: when `sortie serve` starts this mission by itself (empty when none). */
  schedules: ScheduleConfig[];
  /** The `trigger` block: the webhook that starts this mission under `sortie serve`. */
  trigger?: TriggerConfig;
  /**
   * Packets the mission's agents and commanders can read (slot `packet.NAME`): the mission's
   * `packets`, then those only its tasks name. As in the reference runtime, a task's list
   * documents intent; it is not an access boundary.
   */
  packets: string[];
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
  /** MCP servers by block label. */
  mcpServers: Map<string, McpServerConfig>;
  /** Global skills (agent-scoped ones are in their agent's `skills`). */
  skills: Map<string, SkillConfig>;
  /** Global agents. */
  agents: Map<string, AgentConfig>;
  memories: Map<string, MemoryConfig>;
  packets: Map<string, PacketConfig>;
  missions: Map<string, MissionConfig>;
  /** The `mcp_host` block, when the project has one. */
  mcpHost?: McpHostConfig;
  /** Warnings found while loading (errors throw). */
  warnings: Diagnostic[];
}
