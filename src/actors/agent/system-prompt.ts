/** Builds an agent's system prompt from its personality and the mission context it needs. */
import type { AgentConfig, Config, MissionConfig } from '../../config/config-types.ts';
import { fillTemplate } from '../../runtime/prompts/fill.ts';
import { skillInstructions, type SkillEntry } from '../../machines/agent-skills.ts';
import { describeSchemaForPrompt } from '../../schema/describe.ts';
import type { DatasetStore } from '../../tools/datasets/index.ts';
import type { SlotSet } from '../../tools/files/index.ts';
import {
  AGENT_PROMPT_TEMPLATE,
  DATASET_ENTRY,
  DATASETS_SECTION,
  FILES_SECTION,
  LOADED_SKILLS_SECTION,
  SECRETS_SECTION,
  SKILLS_SECTION,
} from './system-prompt-template.ts';

/** What the prompt describes; all read once, when the session starts. */
export interface AgentPromptContext {
  config: Config;
  mission: MissionConfig;
  datasets: DatasetStore;
  slots: SlotSet;
  /** Names only: values never reach a prompt. */
  secretNames: readonly string[];
}

/**
 * The agent's system prompt: personality, then datasets, files, secrets and skills when
 * present. It never changes while the agent works (a stable, cacheable prefix), except for
 * `withLoadedSkills`.
 */
export function agentSystemPrompt(agent: AgentConfig, context: AgentPromptContext): string {
  const sections = [
    datasetsSection(context),
    filesSection(context),
    secretsSection(context.secretNames),
    skillsSection(agent),
  ].join('');
  return fillTemplate(AGENT_PROMPT_TEMPLATE, { personality: agent.personality.trim(), sections });
}

/**
 * The prompt with the instructions of loaded skills that are no longer in the conversation
 * (see `skillsOutsideConversation`) appended; the prompt itself when there are none.
 */
export function withLoadedSkills(prompt: string, skills: readonly SkillEntry[]): string {
  if (skills.length === 0) return prompt;
  const instructions = skills.map(skillInstructions).join('\n\n');
  return prompt + fillTemplate(LOADED_SKILLS_SECTION, { instructions });
}

function skillsSection(agent: AgentConfig): string {
  if (agent.skills.length === 0) return '';
  const lines = agent.skills.map((skill) => `- ${skill.name}: ${oneLine(skill.description)}`);
  return fillTemplate(SKILLS_SECTION, { skills: lines.join('\n') });
}

/** A description on one line: line breaks inside it would break the list. */
function oneLine(text: string): string {
  return text.trim().replace(/\s*\n\s*/g, ' ');
}

function datasetsSection({ mission, datasets }: AgentPromptContext): string {
  if (mission.datasets.size === 0) return '';
  const entries = [...mission.datasets.values()].map((dataset) => {
    const count = datasets.items(dataset.name).length;
    const schema =
      dataset.schema === undefined ? '' : schemaText(dataset.schema.jsonSchema, dataset.schema);
    return fillTemplate(DATASET_ENTRY, {
      name: dataset.name,
      count: `${count} item${count === 1 ? '' : 's'}`,
      description: dataset.description === undefined ? '' : `: ${dataset.description}`,
      schema,
    });
  });
  return fillTemplate(DATASETS_SECTION, { datasets: entries.join('\n') });
}

/** An item schema as indented field lines, or its JSON when it has no named fields. */
function schemaText(
  jsonSchema: Record<string, unknown>,
  schema: Parameters<typeof describeSchemaForPrompt>[0],
): string {
  const fields = describeSchemaForPrompt(schema);
  if (fields === '') return `\n  Each item matches the JSON Schema ${JSON.stringify(jsonSchema)}`;
  return `\n  Each item:\n${indent(fields)}`;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
}

function filesSection({ config, mission, slots }: AgentPromptContext): string {
  if (slots.isEmpty) return '';
  const lines = slots.slots.map((slot) => {
    const access = slot.textOnly ? ' (read-only, text files)' : slot.readOnly ? ' (read-only)' : '';
    const about = slotDescription(slot.label, config, mission);
    return `- ${slot.label}${access}${about === undefined ? '' : `: ${about}`}`;
  });
  return fillTemplate(FILES_SECTION, { slots: lines.join('\n') });
}

function slotDescription(
  label: string,
  config: Config,
  mission: MissionConfig,
): string | undefined {
  if (label === 'memory') return mission.memory?.description;
  if (label === 'scratchpad') return 'scratch space for this run';
  if (label.startsWith('input.')) {
    const name = label.slice('input.'.length);
    const field = mission.inputs?.fields.find((candidate) => candidate.name === name);
    return field?.description ?? `the file given as input "${name}"`;
  }
  if (label.startsWith('packet.')) {
    return config.packets.get(label.slice('packet.'.length))?.description ?? 'reference files';
  }
  return config.memories.get(label)?.description;
}

function secretsSection(names: readonly string[]): string {
  if (names.length === 0) return '';
  return fillTemplate(SECRETS_SECTION, { secrets: names.join(', ') });
}
