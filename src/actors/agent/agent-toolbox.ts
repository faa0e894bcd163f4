/**
 * The tools one agent session offers, in a fixed order: configured tools (config order),
 * `load_skill` (agents with skills), dataset tools, file tools, the `result_*` tools once a
 * large result was intercepted, then the tools of the loaded skills, in load order.
 */
import type { AgentConfig, Config, MissionConfig, ToolRef } from '../../config/config-types.ts';
import type { SkillEntry } from '../../machines/agent-skills.ts';
import { variableValues } from '../../config/requirements.ts';
import type { ToolDefinition } from '../../models/model-types.ts';
import type { AgentTool } from '../../tools/builtins/agent-tool.ts';
import { customToolFromConfig } from '../../tools/builtins/config-http-tool.ts';
import type { HumanAskers } from '../../runtime/human-desk.ts';
import { createHumanAskTool, type HumanAsker } from '../../tools/builtins/human-ask.ts';
import { findBuiltinTool } from '../../tools/builtins/tool-names.ts';
import { datasetToolsFor, type DatasetStore } from '../../tools/datasets/index.ts';
import { fileToolsFor, type SlotSet } from '../../tools/files/index.ts';
import { mcpReferencesOf, type McpPool } from '../../tools/mcp/index.ts';
import { resultToolsFor, type ResultStore } from '../../tools/results/index.ts';
import { withSecrets, type SecretValues } from '../../tools/secrets.ts';
import { LOAD_SKILL_DEFINITION } from '../../tools/skills/load-skill.ts';
import {
  errorOutcome,
  type ModelSampler,
  type ToolNotice,
} from '../../tools/builtins/agent-tool.ts';

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
  human: HumanAskers;
  /** The agent's model, for the sampling of the MCP servers that may use it. */
  sampler?: ModelSampler;
  /** Takes what the agent's tools say while they run (MCP progress and log messages). */
  notify?: (notice: ToolNotice) => void;
}

/**
 * `load_skill` as the toolbox lists it. The agent machine answers every call of it (the skill
 * rules are its own), so this `execute` is never reached.
 */
const LOAD_SKILL_TOOL: AgentTool = {
  definition: LOAD_SKILL_DEFINITION,
  execute: async () => errorOutcome('load_skill is answered by the agent loop'),
};

/**
 * An agent's tools by model-visible name: its own (a list that only ever grows: result tools)
 * and those each of its skills adds once loaded.
 */
export class AgentToolbox {
  private readonly tools: AgentTool[];
  private readonly byName = new Map<string, AgentTool>();
  /** Per skill, in the agent's skill order: the tools it adds (none the agent has anyway). */
  private readonly skillTools = new Map<string, AgentTool[]>();
  /** The agent's skills; their tool names are known once the tools are in place. */
  private skills: SkillEntry[];
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
    this.skills = agent.skills.map((skill) => ({
      name: skill.name,
      instructions: skill.instructions,
      tools: [],
    }));
    // Without MCP tools the list is known now; with them it waits for their servers.
    if (this.mcpReferences().length === 0) this.ready = Promise.resolve(this.fill(new Map()));
  }

  /**
   * Starts the MCP servers the agent's and its skills' tools come from (once per run, shared)
   * and puts their tools in place; call before the first model turn. Rejects with
   * McpStartError naming the server when one cannot start (the agent call fails with it); a
   * later call tries again only if the start was cancelled.
   */
  prepare(signal: AbortSignal): Promise<void> {
    this.ready ??= this.mcpTools(signal).then((mcpTools) => this.fill(mcpTools));
    const ready = this.ready;
    ready.catch(() => {
      if (this.ready === ready) this.ready = undefined;
    });
    return ready;
  }

  /** The MCP references of the agent's tools and of its skills' tools. */
  private mcpReferences(): ToolRef[] {
    const references = [this.agent.tools, ...this.agent.skills.map((skill) => skill.tools)];
    return references.flat().filter((tool) => tool.kind === 'mcp');
  }

  /** Each MCP reference's tools (servers started concurrently). */
  private async mcpTools(signal: AbortSignal): Promise<Map<ToolRef, AgentTool[]>> {
    const references = this.mcpReferences();
    const lists = await Promise.all(
      references.map((reference) =>
        this.sources.mcp.toolsFor(mcpReferencesOf([reference]), signal),
      ),
    );
    return new Map(references.map((reference, index) => [reference, lists[index] ?? []]));
  }

  private fill(mcpTools: ReadonlyMap<ToolRef, AgentTool[]>): void {
    const { datasets, results, slots, secrets } = this.sources;
    const from = { mcpTools, human: this.sources.human.askerFor(this.actor) };
    for (const tool of [
      ...configuredTools(this.agent.tools, this.sources, from),
      ...(this.agent.skills.length > 0 ? [LOAD_SKILL_TOOL] : []),
      ...datasetToolsFor(datasets, results),
      ...fileToolsFor(slots),
    ]) {
      this.add(tool);
    }
    this.skills = this.agent.skills.map((skill) => {
      const tools = configuredTools(skill.tools, this.sources, from)
        .filter((tool) => !this.byName.has(tool.definition.name))
        .map((tool) => withSecrets(tool, secrets));
      this.skillTools.set(skill.name, tools);
      const names = tools.map((tool) => tool.definition.name);
      return { name: skill.name, instructions: skill.instructions, tools: names };
    });
  }

  /** The agent's skills as its machine rules on them (tool names once `prepare` settled). */
  skillEntries(): SkillEntry[] {
    return this.skills;
  }

  /** The definitions to offer the model, in order: own tools, then the loaded skills' tools. */
  definitions(loadedSkills: readonly string[] = []): ToolDefinition[] {
    return this.offered(loadedSkills).map((tool) => tool.definition);
  }

  /** The model-visible names, in order (for the unknown-tool error). */
  names(loadedSkills: readonly string[] = []): string[] {
    return this.offered(loadedSkills).map((tool) => tool.definition.name);
  }

  /** Whether the agent's configuration gives it tools (`tools`, or skills to load). */
  hasOwnTools(): boolean {
    return this.agent.tools.length > 0 || this.agent.skills.length > 0;
  }

  /** An own tool, or a tool of a loaded skill. */
  find(name: string, loadedSkills: readonly string[] = []): AgentTool | undefined {
    return (
      this.byName.get(name) ??
      this.loadedSkillTools(loadedSkills).find((tool) => tool.definition.name === name)
    );
  }

  /** Adds `result_info` … `result_chunk` after the first interception; later calls do nothing. */
  addResultTools(): void {
    if (this.resultToolsAdded) return;
    this.resultToolsAdded = true;
    for (const tool of resultToolsFor(this.sources.results)) this.add(tool);
  }

  private offered(loadedSkills: readonly string[]): AgentTool[] {
    if (loadedSkills.length === 0) return this.tools;
    return [...this.tools, ...this.loadedSkillTools(loadedSkills)];
  }

  /** The loaded skills' tools in load order, each name once (two skills may share a tool). */
  private loadedSkillTools(loadedSkills: readonly string[]): AgentTool[] {
    const seen = new Set<string>();
    return loadedSkills.flatMap((skill) =>
      (this.skillTools.get(skill) ?? []).filter((tool) => {
        if (seen.has(tool.definition.name)) return false;
        seen.add(tool.definition.name);
        return true;
      }),
    );
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
 * An agent's or a skill's `tools = [...]` in config order: built-ins (`builtins.human.ask`
 * asking through `human`), custom tool blocks, tools registered as TypeScript functions
 * (configuration forbids the same name for both), and each MCP reference's tools (`mcpTools`)
 * at its place.
 */
function configuredTools(
  references: readonly ToolRef[],
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
  return references.flatMap((reference) => {
    if (reference.kind === 'builtin') {
      if (reference.name === 'builtins.human.ask') return [createHumanAskTool(from.human)];
      const tool = findBuiltinTool(reference.name);
      return tool === undefined ? [] : [tool];
    }
    if (reference.kind === 'mcp') {
      // A server's questions to the person (elicitation) go through the calling agent's asker,
      // its requests for a model (sampling) to the agent's model, its news to the agent's events.
      const { sampler, notify } = sources;
      return (from.mcpTools.get(reference) ?? []).map((tool): AgentTool => ({
        ...tool,
        execute: (args, context) =>
          tool.execute(args, {
            ...context,
            human: from.human,
            ...(sampler !== undefined ? { sampler } : {}),
            ...(notify !== undefined ? { notify } : {}),
          }),
      }));
    }
    const custom = config.tools.get(reference.name);
    if (custom !== undefined) return [customToolFromConfig(custom, variables)];
    const registered = sources.functionTools?.get(reference.name);
    return registered === undefined ? [] : [registered];
  });
}
