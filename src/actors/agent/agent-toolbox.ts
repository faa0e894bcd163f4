/**
 * The tools one agent session offers, in a fixed order: configured tools (config order, an
 * MCP server's tools at the place of their reference), dataset tools, file tools, then the
 * `result_*` tools once a large result was intercepted.
 */
import type { AgentConfig, Config, MissionConfig, ToolRef } from '../../config/config-types.ts';
import { variableValues } from '../../config/requirements.ts';
import type { ToolDefinition } from '../../models/model-types.ts';
import type { AgentTool } from '../../tools/builtins/agent-tool.ts';
import { customToolFromConfig } from '../../tools/builtins/config-http-tool.ts';
import type { HumanDesk } from '../../runtime/human-desk.ts';
import { createHumanAskTool, type HumanAsker } from '../../tools/builtins/human-ask.ts';
import { findBuiltinTool } from '../../tools/builtins/tool-names.ts';
import { datasetToolsFor, type DatasetStore } from '../../tools/datasets/index.ts';
import { fileToolsFor, type SlotSet } from '../../tools/files/index.ts';
import { mcpReferencesOf, type McpPool } from '../../tools/mcp/index.ts';
import { resultToolsFor, type ResultStore } from '../../tools/results/index.ts';
import { withSecrets, type SecretValues } from '../../tools/secrets.ts';

/** The run services a toolbox draws its tools from. */
export interface ToolboxSources {
  config: Config;
  mission: MissionConfig;
  datasets: DatasetStore;
  results: ResultStore;
  slots: SlotSet;
  secrets: SecretValues;
  /** The run's MCP servers. */
  mcp: McpPool;
  /** Tools registered as TypeScript functions, by the name `tools.NAME` gives them. */
  functionTools?: ReadonlyMap<string, AgentTool>;
  /** Answers the agent's questions to the person (`builtins.human.ask`). */
  human: HumanDesk;
}

/** An agent's tools by model-visible name; the list only ever grows (result tools). */
export class AgentToolbox {
  private readonly tools: AgentTool[];
  private readonly byName = new Map<string, AgentTool>();
  private resultToolsAdded = false;

  /** Settles once every tool is in place (MCP servers started); undefined until asked. */
  private ready: Promise<void> | undefined;

  /** The tools of `agent` whose actor id is `actor` (a question to the person names it). */
  constructor(
    private readonly agent: AgentConfig,
    private readonly sources: ToolboxSources,
    private readonly actor: string,
  ) {
    this.tools = [];
    // Without MCP tools the list is known now; with them it waits for their servers.
    if (mcpReferencesOf(agent.tools).length === 0)
      this.ready = Promise.resolve(this.fill(new Map()));
  }

  /**
   * Starts the MCP servers the agent's tools come from (once per run, shared) and puts their
   * tools in place; call before the first model turn. Rejects with McpStartError naming the
   * server when one cannot start (the agent call fails with it); a later call tries again
   * only if the start was cancelled.
   */
  prepare(signal: AbortSignal): Promise<void> {
    this.ready ??= this.mcpTools(signal).then((mcpTools) => this.fill(mcpTools));
    const ready = this.ready;
    ready.catch(() => {
      if (this.ready === ready) this.ready = undefined;
    });
    return ready;
  }

  /** Each MCP reference's tools (servers started concurrently). */
  private async mcpTools(signal: AbortSignal): Promise<Map<ToolRef, AgentTool[]>> {
    const references = this.agent.tools.filter((tool) => tool.kind === 'mcp');
    const lists = await Promise.all(
      references.map((reference) =>
        this.sources.mcp.toolsFor(mcpReferencesOf([reference]), signal),
      ),
    );
    return new Map(references.map((reference, index) => [reference, lists[index] ?? []]));
  }

  private fill(mcpTools: ReadonlyMap<ToolRef, AgentTool[]>): void {
    for (const tool of [
      ...configuredTools(this.agent, this.sources, {
        mcpTools,
        human: this.sources.human.askerFor(this.actor),
      }),
      ...datasetToolsFor(this.sources.datasets, this.sources.results),
      ...fileToolsFor(this.sources.slots),
    ]) {
      this.add(tool);
    }
  }

  /** The definitions to offer the model, in order. */
  definitions(): ToolDefinition[] {
    return this.tools.map((tool) => tool.definition);
  }

  /** The model-visible names, in order (for the unknown-tool error). */
  names(): string[] {
    return this.tools.map((tool) => tool.definition.name);
  }

  find(name: string): AgentTool | undefined {
    return this.byName.get(name);
  }

  /** Adds `result_info` … `result_chunk` after the first interception; later calls do nothing. */
  addResultTools(): void {
    if (this.resultToolsAdded) return;
    this.resultToolsAdded = true;
    for (const tool of resultToolsFor(this.sources.results)) this.add(tool);
  }

  get hasResultTools(): boolean {
    return this.resultToolsAdded;
  }

  // Every tool substitutes `${secrets.NAME}` and scrubs the values from what it returns.
  // A tool named twice (`mcp.s.all` and `mcp.s.read`) is offered once, at its first place.
  private add(tool: AgentTool): void {
    if (this.byName.has(tool.definition.name)) return;
    const wrapped = withSecrets(tool, this.sources.secrets);
    this.tools.push(wrapped);
    this.byName.set(tool.definition.name, wrapped);
  }
}

/**
 * The agent's `tools = [...]` in config order: built-ins (`builtins.human.ask` asking through
 * `human`), custom tool blocks, tools registered as TypeScript functions (configuration
 * forbids the same name for both), and each MCP reference's tools (`mcpTools`) at its place.
 */
function configuredTools(
  agent: AgentConfig,
  sources: ToolboxSources,
  from: { mcpTools: ReadonlyMap<ToolRef, AgentTool[]>; human: HumanAsker },
): AgentTool[] {
  const { config } = sources;
  const variables = {
    values: variableValues(config),
    secret: new Set(
      [...config.variables.values()].flatMap((variable) =>
        variable.secret ? [variable.name] : [],
      ),
    ),
  };
  return agent.tools.flatMap((reference) => {
    if (reference.kind === 'builtin') {
      if (reference.name === 'builtins.human.ask') return [createHumanAskTool(from.human)];
      const tool = findBuiltinTool(reference.name);
      return tool === undefined ? [] : [tool];
    }
    if (reference.kind === 'mcp') return from.mcpTools.get(reference) ?? [];
    const custom = config.tools.get(reference.name);
    if (custom !== undefined) return [customToolFromConfig(custom, variables)];
    const registered = sources.functionTools?.get(reference.name);
    return registered === undefined ? [] : [registered];
  });
}
