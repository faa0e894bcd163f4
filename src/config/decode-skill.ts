import type { Attribute, Block, Span } from './ast.ts';
import { blockName, checkBody, headerSpan } from './body.ts';
import { errorAt, within, type DecodeContext } from './context.ts';
import { readNameList } from './references.ts';
import { resolveToolRefs, type ToolScope } from './tool-refs.ts';
import type { SkillConfig } from './config-types.ts';
import { readList, readString } from './values.ts';

/**
 * Decodes a `skill "NAME" { description, instructions, tools }` block: global when `agent` is
 * undefined, else scoped to that agent. Its tools may be anything an agent's may.
 */
export function decodeSkill(
  block: Block,
  context: DecodeContext,
  tools: ToolScope,
  agent?: string,
): SkillConfig | undefined {
  const name = blockName(block, context);
  if (name === undefined) return undefined;
  const inner = within(context, `skill "${name}"`);
  const body = checkBody(
    block.body,
    {
      attributes: ['description', 'instructions', 'tools'],
      required: ['description', 'instructions'],
    },
    inner,
    headerSpan(block),
  );
  const description = readString(body.attributes.get('description'), inner);
  const instructions = readString(body.attributes.get('instructions'), inner);
  const toolItems = readList(body.attributes.get('tools'), inner);
  const skillTools = toolItems ? resolveToolRefs(toolItems, tools, inner) : [];
  if (description === undefined || instructions === undefined) return undefined;
  const skill: SkillConfig = {
    name,
    description,
    instructions,
    tools: skillTools,
    span: block.labelSpans[0] ?? block.span,
  };
  if (agent !== undefined) skill.agent = agent;
  return skill;
}

/** What an agent's skills are resolved against. */
export interface SkillScope {
  tools: ToolScope;
  /** Global skills by name (those decoded without error). */
  skills: ReadonlyMap<string, SkillConfig>;
  /** Every global skill's name, also of those with errors (already reported). */
  skillNames: ReadonlySet<string>;
}

/**
 * An agent's skills: its own `skill` blocks (a name may not repeat, nor be a global skill's),
 * and its `skills = [...]` list resolved against the global skills and its own. Returns the
 * skills the agent may load: those listed, in order, then its own that it does not list.
 */
export function decodeAgentSkills(
  blocks: readonly Block[],
  listed: Attribute | undefined,
  scope: SkillScope,
  agent: string,
  context: DecodeContext,
): SkillConfig[] {
  const own = new Map<string, SkillConfig | undefined>();
  for (const block of blocks) {
    const skill = decodeSkill(block, context, scope.tools, agent);
    const label = block.labels.length === 1 ? block.labels[0] : undefined;
    if (label === undefined) continue;
    const labelSpan: Span = block.labelSpans[0] ?? block.typeSpan;
    if (own.has(label)) {
      errorAt(context, labelSpan, `duplicate skill "${label}" in agent "${agent}"`);
    } else if (scope.skillNames.has(label)) {
      errorAt(
        context,
        labelSpan,
        `skill "${label}" of agent "${agent}" has the same name as a global skill`,
        'rename one of them: an agent-scoped skill cannot shadow a global skill',
      );
    } else own.set(label, skill);
  }
  const names = new Set([...scope.skillNames, ...own.keys()]);
  const chosen = readNameList(listed, { namespace: 'skills', kind: 'skill', names }, context);
  const skills: SkillConfig[] = [];
  for (const { name } of chosen) {
    const skill = own.has(name) ? own.get(name) : scope.skills.get(name);
    if (skill !== undefined) skills.push(skill);
  }
  for (const [name, skill] of own) {
    if (skill !== undefined && !chosen.some((entry) => entry.name === name)) skills.push(skill);
  }
  return skills;
}
