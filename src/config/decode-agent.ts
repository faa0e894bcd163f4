import type { Attribute, Block } from './ast.ts';
import type { ReasoningLevel } from '../models/model-types.ts';
import { blockName, checkBody, expectNoLabels, headerSpan, type CheckedBody } from './body.ts';
import { errorAt, warningAt, within, type DecodeContext } from './context.ts';
import { CONTEXT_LIMIT_BLOCKS, readContextLimits } from './decode-context-limits.ts';
import { decodeAgentSkills, type SkillScope } from './decode-skill.ts';
import { resolveModelRef, type ModelTable } from './model-refs.ts';
import { literalText, readBool, readList, readNumber, readString } from './values.ts';
import { resolveToolRefs } from './tool-refs.ts';
import type { AgentConfig, CommanderConfig, ModelRef } from './config-types.ts';

/** Default `max_turns` of an agent's model⇄tool loop. */
export const DEFAULT_AGENT_MAX_TURNS = 50;

const REASONING_LEVELS: readonly ReasoningLevel[] = ['low', 'medium', 'high'];

const AGENT_ATTRIBUTES = [
  'model',
  'personality',
  'tools',
  'skills',
  'reasoning',
  'max_turns',
  'parallel_tool_calls',
];

/** What agent decoding needs from the rest of the project. */
export interface AgentScope extends SkillScope {
  models: ModelTable;
}

/** Decodes an `agent "NAME"` block (global when `mission` is undefined). */
export function decodeAgent(
  block: Block,
  context: DecodeContext,
  scope: AgentScope,
  mission?: string,
): AgentConfig | undefined {
  const name = blockName(block, context);
  if (name === undefined) return undefined;
  const inner = within(context, `agent "${name}"`);
  const body = checkBody(
    block.body,
    {
      attributes: AGENT_ATTRIBUTES,
      required: ['model', 'personality'],
      blocks: ['skill', ...CONTEXT_LIMIT_BLOCKS],
      ignoredAttributes: ['role'],
      lenient: { what: 'agents' },
    },
    inner,
    headerSpan(block),
  );
  const { model, reasoning } = readModel(body, scope.models, `agent "${name}"`, inner);
  const personality = readString(body.attributes.get('personality'), inner);
  const toolItems = readList(body.attributes.get('tools'), inner);
  const tools = toolItems ? resolveToolRefs(toolItems, scope.tools, inner) : [];
  const skills = decodeAgentSkills(
    body.blocks.filter((child) => child.type === 'skill'),
    body.attributes.get('skills'),
    scope,
    name,
    inner,
  );
  const maxTurns = readNumber(body.attributes.get('max_turns'), inner, { integer: true, min: 1 });
  const parallelToolCalls = readBool(body.attributes.get('parallel_tool_calls'), inner);
  const limits = readContextLimits(body.blocks, inner);
  if (!model || personality === undefined) return undefined;
  const agent: AgentConfig = {
    name,
    model,
    personality,
    tools,
    skills,
    maxTurns: maxTurns ?? DEFAULT_AGENT_MAX_TURNS,
    parallelToolCalls: parallelToolCalls ?? true,
    ...limits,
    span: block.labelSpans[0] ?? block.span,
  };
  if (mission !== undefined) agent.mission = mission;
  if (reasoning) agent.reasoning = reasoning;
  return agent;
}

/** Decodes a mission's `commander { model, reasoning, stall_turns }` block. */
export function decodeCommander(
  block: Block,
  context: DecodeContext,
  models: ModelTable,
  mission: string,
): CommanderConfig | undefined {
  expectNoLabels(block, context);
  const inner = within(context, 'commander');
  const body = checkBody(
    block.body,
    {
      attributes: ['model', 'reasoning', 'stall_turns'],
      required: ['model'],
      blocks: [...CONTEXT_LIMIT_BLOCKS],
      lenient: { what: 'commanders' },
    },
    inner,
    headerSpan(block),
  );
  const who = `commander of mission "${mission}"`;
  const { model, reasoning } = readModel(body, models, who, inner);
  const limits = readContextLimits(body.blocks, inner);
  const stallTurns = readNumber(body.attributes.get('stall_turns'), inner, {
    integer: true,
    min: 1,
  });
  if (!model) return undefined;
  return {
    model,
    ...(reasoning ? { reasoning } : {}),
    ...(stallTurns !== undefined ? { stallTurns } : {}),
    ...limits,
  };
}

/**
 * `model` and `reasoning` of an agent or a commander (`who` in messages), with the startup
 * warning of models.md for `reasoning` on a model that cannot reason.
 */
function readModel(
  body: CheckedBody,
  models: ModelTable,
  who: string,
  context: DecodeContext,
): { model?: ModelRef; reasoning?: ReasoningLevel } {
  const modelAttribute = body.attributes.get('model');
  const model = modelAttribute && resolveModelRef(modelAttribute.value, models, context);
  const attribute = body.attributes.get('reasoning');
  const reasoning = attribute && readReasoning(attribute, context);
  const known = model && models.blocks.get(model.config)?.models.get(model.key);
  if (model && attribute && reasoning && known?.reasoningCapable === false) {
    warningAt(
      context,
      attribute.span,
      `${who}: reasoning = "${reasoning}" has no effect: model ${known.apiName} (models.${model.config}.${model.key}) is not reasoning-capable`,
    );
  }
  return { model, reasoning };
}

function readReasoning(attribute: Attribute, context: DecodeContext): ReasoningLevel | undefined {
  const text = literalText(attribute.value)?.toLowerCase();
  const level = REASONING_LEVELS.find((candidate) => candidate === text);
  if (level === undefined) {
    errorAt(context, attribute.value.span, 'reasoning must be one of low, medium, high');
  }
  return level;
}
