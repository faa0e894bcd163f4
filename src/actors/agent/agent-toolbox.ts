/**
 * The tools one agent session offers, in a fixed order: configured tools (config order),
 * dataset tools, file tools, then the `result_*` tools once a large result was intercepted.
 */
import type { AgentConfig, Config, MissionConfig } from '../../config/config-types.ts';
import { variableValues } from '../../config/requirements.ts';
import type { ToolDefinition } from '../../models/model-types.ts';
import type { AgentTool } from '../../tools/builtins/agent-tool.ts';
import { customToolFromConfig } from '../../tools/builtins/config-http-tool.ts';
import { findBuiltinTool } from '../../tools/builtins/tool-names.ts';
import { datasetToolsFor, type DatasetStore } from '../../tools/datasets/index.ts';
import { fileToolsFor, type SlotSet } from '../../tools/files/index.ts';
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
}

/** An agent's tools by model-visible name; the list only ever grows (result tools). */
export class AgentToolbox {
  private readonly tools: AgentTool[];
  private readonly byName = new Map<string, AgentTool>();
  private resultToolsAdded = false;

  constructor(
    agent: AgentConfig,
    private readonly sources: ToolboxSources,
  ) {
    this.tools = [];
    for (const tool of [
      ...configuredTools(agent, sources.config),
      ...datasetToolsFor(sources.datasets, sources.results),
      ...fileToolsFor(sources.slots),
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
  private add(tool: AgentTool): void {
    const wrapped = withSecrets(tool, this.sources.secrets);
    this.tools.push(wrapped);
    this.byName.set(tool.definition.name, wrapped);
  }
}

/** The agent's `tools = [...]` in config order: built-ins, and custom tool blocks. */
function configuredTools(agent: AgentConfig, config: Config): AgentTool[] {
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
      const tool = findBuiltinTool(reference.name);
      return tool === undefined ? [] : [tool];
    }
    // A server's tools are known once it runs: they do not come from the configuration alone.
    if (reference.kind === 'mcp') return [];
    const custom = config.tools.get(reference.name);
    return custom === undefined ? [] : [customToolFromConfig(custom, variables)];
  });
}
