import type { Block, SourceFile } from './ast.ts';
import type { Diagnostic } from '../base/errors.ts';
import { checkBody } from './body.ts';
import { warningAt, type DecodeContext, type LoadTextResult } from './context.ts';
import { decodeAgent } from './decode-agent.ts';
import { decodeMcpServer } from './decode-mcp.ts';
import { decodeMcpHost } from './decode-mcp-host.ts';
import { decodeMemory } from './decode-memory.ts';
import { decodeMission, type MissionDraft } from './decode-mission.ts';
import { checkWebhookPaths } from './decode-schedule.ts';
import { decodeModel } from './decode-models.ts';
import { decodePacket } from './decode-packet.ts';
import { decodeSkill } from './decode-skill.ts';
import { decodeTool } from './decode-tool.ts';
import { decodeVariable } from './decode-variables.ts';
import { DiagnosticSink } from './diagnostics.ts';
import type { ModelCatalog } from './model-catalog.ts';
import type { Config, VariableConfig } from './config-types.ts';
import type { FolderResult } from './syntax/project-folder.ts';
import { undeclaredVariables } from './variable-table.ts';
import type { VariableSources } from './variable-values.ts';

/** Everything decoding needs besides the parsed files. */
export interface DecodeOptions extends VariableSources {
  root: string;
  catalog: ModelCatalog;
  loadText: (requested: string) => LoadTextResult;
  /** Resolves and checks a folder path written in a file (a packet's `path`). */
  resolveFolder: (fromFile: string, requested: string) => FolderResult;
  /** Names of tools registered as TypeScript functions: `tools.NAME` may refer to them too. */
  functionTools?: ReadonlySet<string>;
}

const TOP_LEVEL = {
  attributes: [],
  blocks: [
    'variable',
    'model',
    'mcp',
    'mcp_host',
    'tool',
    'skill',
    'agent',
    'memory',
    'packet',
    'mission',
  ],
  ignoredBlocks: ['command_center', 'vault', 'storage', 'gateway'],
  lenient: { what: 'project files' },
};

/**
 * Decodes parsed files into a Config and every diagnostic found (the Config is only
 * meaningful when there are no errors). Kinds are decoded in dependency order — variables,
 * models, MCP servers, tools, skills, agents, memories, packets, missions — whatever the file
 * order.
 */
export function decodeProject(
  files: readonly SourceFile[],
  options: DecodeOptions,
): { config: Config; diagnostics: Diagnostic[] } {
  const sink = new DiagnosticSink();
  const variables = new Map<string, VariableConfig>();
  const undeclared = undeclaredVariables(variables, options, sink);
  const context: DecodeContext = {
    sink,
    path: [],
    loadText: options.loadText,
    resolveFolder: options.resolveFolder,
    variables,
    useVariable: undeclared.use,
  };
  const blocks: Block[] = [];
  for (const file of files) {
    const start = { line: 1, column: 1, offset: 0 };
    const fileSpan = { file: file.path, start, end: start };
    // One push per block: spreading 200,000 blocks into push() overflows the call stack.
    for (const block of checkBody(file.body, TOP_LEVEL, context, fileSpan).blocks) {
      blocks.push(block);
    }
  }
  const ofType = (type: string): Block[] => blocks.filter((block) => block.type === type);
  const named = <T>(
    type: string,
    decode: (block: Block) => T | undefined,
  ): { labels: Set<string>; values: Map<string, T> } => {
    const labels = new Set<string>();
    const values = new Map<string, T>();
    const first = new Map<string, Block>();
    for (const block of ofType(type)) {
      const value = decode(block);
      const label = block.labels.length === 1 ? block.labels[0] : undefined;
      if (label === undefined) continue;
      const earlier = first.get(label);
      if (earlier) {
        const where = `${earlier.typeSpan.file}:${earlier.typeSpan.start.line}`;
        sink.error(
          block.labelSpans[0] ?? block.typeSpan,
          `duplicate ${type} "${label}"`,
          [],
          `first declared at ${where}`,
        );
        continue;
      }
      first.set(label, block);
      labels.add(label);
      if (value !== undefined) values.set(label, value);
    }
    return { labels, values };
  };
  for (const [name, variable] of named('variable', (block) =>
    decodeVariable(block, context, options),
  ).values) {
    variables.set(name, variable);
  }
  const models = named('model', (block) => decodeModel(block, context, options.catalog));
  const modelTable = { labels: models.labels, blocks: models.values, catalog: options.catalog };
  const mcpServers = named('mcp', (block) => decodeMcpServer(block, context));
  const tools = named('tool', (block) => decodeTool(block, context));
  const functionTools = options.functionTools ?? new Set<string>();
  checkFunctionToolNames(ofType('tool'), functionTools, sink);
  const toolScope = {
    customTools: new Set([...tools.labels, ...functionTools]),
    mcpServers: mcpServers.labels,
  };
  const skills = named('skill', (block) => decodeSkill(block, context, toolScope));
  const agentScope = {
    models: modelTable,
    tools: toolScope,
    skills: skills.values,
    skillNames: skills.labels,
  };
  const agents = named('agent', (block) => decodeAgent(block, context, agentScope));
  const memories = named('memory', (block) => decodeMemory(block, context));
  const packets = named('packet', (block) => decodePacket(block, context));
  const missionLabels = new Set(
    ofType('mission').flatMap((block) => (block.labels.length === 1 ? block.labels : [])),
  );
  const scope = {
    ...agentScope,
    globalAgents: agents.labels,
    memories: memories.labels,
    packets: packets.labels,
    missions: missionLabels,
  };
  const missions = named('mission', (block) => decodeMission(block, context, scope));
  warnUnknowableRouteInputs(missions.values);
  checkWebhookPaths(
    [...missions.values.values()].map((draft) => draft.mission),
    context,
  );
  const mcpHost = decodeMcpHost(ofType('mcp_host'), context);
  undeclared.report();
  const config: Config = {
    root: options.root,
    files: files.map((file) => file.path),
    variables,
    models: models.values,
    tools: tools.values,
    mcpServers: mcpServers.values,
    skills: skills.values,
    agents: agents.values,
    memories: memories.values,
    packets: packets.values,
    missions: new Map([...missions.values].map(([name, draft]) => [name, draft.mission])),
    warnings: [],
  };
  if (mcpHost !== undefined) config.mcpHost = mcpHost;
  return { config, diagnostics: sink.diagnostics };
}

/**
 * A route to another mission must supply its required inputs in `mission_inputs`; a commander
 * cannot produce a file or know a protected value, so such inputs make the route fail at run time.
 */
function warnUnknowableRouteInputs(missions: ReadonlyMap<string, MissionDraft>): void {
  for (const draft of missions.values()) {
    for (const task of draft.tasks) {
      for (const route of task.routes) {
        if (route.target.kind !== 'mission') continue;
        const target = missions.get(route.target.name)?.mission;
        for (const field of target?.inputs?.fields ?? []) {
          if (!field.required || (!field.file && !field.protected)) continue;
          const kind = field.file ? 'file' : 'protected';
          warningAt(
            task.context,
            route.span,
            `route to mission "${route.target.name}": its required ${kind} input "${field.name}" cannot be supplied by a commander in mission_inputs`,
          );
        }
      }
    }
  }
}

/** A `tool` block may not share its name with a tool registered as a TypeScript function. */
function checkFunctionToolNames(
  blocks: readonly Block[],
  functionTools: ReadonlySet<string>,
  sink: DiagnosticSink,
): void {
  for (const block of blocks) {
    const label = block.labels[0];
    if (label === undefined || !functionTools.has(label)) continue;
    sink.error(
      block.labelSpans[0] ?? block.typeSpan,
      `tool "${label}" is also registered as a TypeScript function tool`,
      [],
      'rename the tool block or the registered tool: tools.NAME must name one tool',
    );
  }
}
