import type { Block } from './ast.ts';
import { blockName, checkBody, headerSpan, singleBlock } from './body.ts';
import { errorAt, within, type DecodeContext } from './context.ts';
import { decodeAgent, decodeCommander, type AgentScope } from './decode-agent.ts';
import { DEFAULT_TOOL_RESPONSE_MAX_TOKENS } from './decode-context-limits.ts';
import { decodeDataset } from './decode-dataset.ts';
import { decodeBudget, decodeMissionMemory } from './decode-memory.ts';
import { decodeTask, type TaskDraft } from './decode-task.ts';
import { decodeSchedule, decodeTrigger, DEFAULT_MAX_PARALLEL } from './decode-schedule.ts';
import { applyInputValues, takeInputValues } from './input-values.ts';
import { resolveModelRef } from './model-refs.ts';
import { readNameList } from './references.ts';
import { readSchema } from './schema-bridge.ts';
import { checkTaskGraph } from './check-task-graph.ts';
import type { AgentConfig, CommanderConfig, DatasetConfig, MissionConfig } from './config-types.ts';
import { readBool, readNumber, readString } from './values.ts';

/** What a mission may reference in the rest of the project. */
export interface MissionScope extends AgentScope {
  globalAgents: ReadonlySet<string>;
  memories: ReadonlySet<string>;
  packets: ReadonlySet<string>;
  missions: ReadonlySet<string>;
}

/** A decoded mission plus its task drafts (for project-level checks such as cross-mission routes). */
export interface MissionDraft {
  mission: MissionConfig;
  tasks: TaskDraft[];
}

/** Decodes a `mission "NAME"` block with everything inside it. */
export function decodeMission(
  block: Block,
  context: DecodeContext,
  scope: MissionScope,
): MissionDraft | undefined {
  const name = blockName(block, context);
  if (name === undefined) return undefined;
  const inner = within(context, `mission "${name}"`);
  const header = headerSpan(block);
  const body = checkBody(
    block.body,
    {
      attributes: [
        'directive',
        'agents',
        'inputs',
        'memories',
        'packets',
        'scratchpad',
        'commander',
        'max_parallel',
      ],
      blocks: [
        'commander',
        'agent',
        'inputs',
        'input',
        'dataset',
        'task',
        'memory',
        'budget',
        'schedule',
        'trigger',
      ],
      ignoredBlocks: ['secret'],
      lenient: { what: 'missions' },
      ignoredHints: {
        secret:
          'the reference runtime never reads them either; feed a protected input with input "NAME" { protected = true, value = vars.NAME }',
      },
    },
    inner,
    header,
  );
  const blocksOf = (type: string): Block[] => body.blocks.filter((child) => child.type === type);
  const commander = readCommander(body, blocksOf('commander'), inner, scope, name, header);
  const scopedAgents = decodeScopedAgents(blocksOf('agent'), inner, scope, name);
  const agentNames = new Set([...scope.globalAgents, ...scopedAgents.labels]);
  const agents = readNameList(
    body.attributes.get('agents'),
    { namespace: 'agents', kind: 'agent', names: agentNames },
    inner,
  );
  const inputValues = takeInputValues(blocksOf('input'), inner);
  const inputs = readSchema(body, 'inputs', 'mission_inputs', inner, inputValues.blocks);
  if (inputs) applyInputValues(inputs, inputValues.values, inner);
  const inputsBroken =
    !inputs &&
    (body.attributes.has('inputs') ||
      blocksOf('inputs').length > 0 ||
      blocksOf('input').length > 0);
  const datasets = new Map<string, DatasetConfig | undefined>();
  for (const datasetBlock of blocksOf('dataset')) {
    const dataset = decodeDataset(datasetBlock, inner, inputs);
    const label = datasetBlock.labels[0];
    if (label === undefined || datasetBlock.labels.length !== 1) continue;
    if (datasets.has(label)) {
      errorAt(
        inner,
        datasetBlock.labelSpans[0] ?? datasetBlock.typeSpan,
        `duplicate dataset "${label}"`,
      );
    } else datasets.set(label, dataset);
  }
  const taskBlocks = blocksOf('task');
  const taskNames = new Set(
    taskBlocks.flatMap((taskBlock) => (taskBlock.labels.length === 1 ? taskBlock.labels : [])),
  );
  const drafts: TaskDraft[] = [];
  const missionAgents = agents.map((entry) => entry.name);
  for (const taskBlock of taskBlocks) {
    const draft = decodeTask(taskBlock, inner, {
      tasks: taskNames,
      missions: scope.missions,
      agents: agentNames,
      datasets,
      inputs,
      inputsBroken,
      missionAgents,
      packets: scope.packets,
    });
    if (!draft) continue;
    if (drafts.some((other) => other.task.name === draft.task.name)) {
      errorAt(inner, draft.labelSpan, `duplicate task "${draft.task.name}"`);
    } else drafts.push(draft);
  }
  if (taskBlocks.length === 0)
    errorAt(inner, header, `mission "${name}" has no tasks: add at least one task block`);
  checkTaskGraph(drafts, inner, header);
  const mission: MissionConfig = {
    name,
    commander: commander ?? {
      model: { config: '', key: '' },
      toolResponseMaxTokens: DEFAULT_TOOL_RESPONSE_MAX_TOKENS,
    },
    agents: missionAgents,
    scopedAgents: scopedAgents.agents,
    datasets: new Map([...datasets].flatMap(([key, value]) => (value ? [[key, value]] : []))),
    tasks: new Map(drafts.map((draft) => [draft.task.name, draft.task])),
    memories: [],
    scratchpad: false,
    packets: [],
    maxParallel: DEFAULT_MAX_PARALLEL,
    schedules: blocksOf('schedule').flatMap((scheduleBlock) => {
      const schedule = decodeSchedule(scheduleBlock, inner, { name, inputs });
      return schedule ? [schedule] : [];
    }),
    span: block.labelSpans[0] ?? block.span,
  };
  const triggerBlock = singleBlock(blocksOf('trigger'), 'trigger', inner);
  const trigger = triggerBlock && decodeTrigger(triggerBlock, inner, name);
  if (trigger) mission.trigger = trigger;
  readMissionExtras(body, blocksOf, inner, scope, mission);
  if (inputs) mission.inputs = inputs;
  return commander ? { mission, tasks: drafts } : undefined;
}

function readCommander(
  body: ReturnType<typeof checkBody>,
  blocks: Block[],
  context: DecodeContext,
  scope: MissionScope,
  mission: string,
  header: Block['span'],
): CommanderConfig | undefined {
  // The reference runtime's older form `commander = models.x.y` means the same as the block.
  const attribute = body.attributes.get('commander');
  if (attribute && blocks.length > 0) {
    return errorAt(
      context,
      attribute.nameSpan,
      'commander is given both as an attribute and as a block; use the block',
    );
  }
  if (attribute) {
    const model = resolveModelRef(attribute.value, scope.models, within(context, 'commander'));
    return model && { model, toolResponseMaxTokens: DEFAULT_TOOL_RESPONSE_MAX_TOKENS };
  }
  const block = singleBlock(blocks, 'commander', context);
  if (!block) {
    return errorAt(
      context,
      header,
      'missing required block "commander": commander { model = models.CONFIG.KEY }',
    );
  }
  return decodeCommander(block, context, scope.models, mission);
}

function decodeScopedAgents(
  blocks: Block[],
  context: DecodeContext,
  scope: MissionScope,
  mission: string,
): { agents: Map<string, AgentConfig>; labels: Set<string> } {
  const agents = new Map<string, AgentConfig>();
  const labels = new Set<string>();
  for (const agentBlock of blocks) {
    const agent = decodeAgent(agentBlock, context, scope, mission);
    const label = agentBlock.labels.length === 1 ? agentBlock.labels[0] : undefined;
    if (label === undefined) continue;
    const labelSpan = agentBlock.labelSpans[0] ?? agentBlock.typeSpan;
    if (scope.globalAgents.has(label)) {
      errorAt(
        context,
        labelSpan,
        `agent "${label}" is already declared at the top level; a mission-scoped agent needs its own name`,
      );
    } else if (labels.has(label)) {
      errorAt(context, labelSpan, `duplicate agent "${label}"`);
    } else {
      labels.add(label);
      if (agent) agents.set(label, agent);
    }
  }
  return { agents, labels };
}

function readMissionExtras(
  body: ReturnType<typeof checkBody>,
  blocksOf: (type: string) => Block[],
  context: DecodeContext,
  scope: MissionScope,
  mission: MissionConfig,
): void {
  const directive = readString(body.attributes.get('directive'), context);
  if (directive !== undefined) mission.directive = directive;
  mission.memories = readNameList(
    body.attributes.get('memories'),
    { namespace: 'memories', kind: 'memory', names: scope.memories },
    context,
  ).map((entry) => entry.name);
  const packets = readNameList(
    body.attributes.get('packets'),
    { namespace: 'packets', kind: 'packet', names: scope.packets },
    context,
  ).map((entry) => entry.name);
  const taskPackets = [...mission.tasks.values()].flatMap((task) => task.packets);
  mission.packets = [...new Set([...packets, ...taskPackets])];
  const memoryBlock = singleBlock(blocksOf('memory'), 'memory', context);
  const memory = memoryBlock && decodeMissionMemory(memoryBlock, context);
  if (memory) mission.memory = memory;
  const maxParallel = readNumber(body.attributes.get('max_parallel'), context, {
    integer: true,
    min: 1,
  });
  if (maxParallel !== undefined) mission.maxParallel = maxParallel;
  mission.scratchpad = readBool(body.attributes.get('scratchpad'), context) ?? false;
  const budgetBlock = singleBlock(blocksOf('budget'), 'budget', context);
  const budget = budgetBlock && decodeBudget(budgetBlock, context);
  if (budget) mission.budget = budget;
}
