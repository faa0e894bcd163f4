/**
 * The commander's system prompt and first user message, built from plain data in the fixed
 * section order of runtime.md: role, directive, agents, dependency context, output schema,
 * routes, sequential workflow.
 */
import { describeSchemaForPrompt } from '../../schema/describe.ts';
import type { CompiledSchema } from '../../schema/json-schema.ts';
import {
  AGENT_ENTRY,
  AGENTS_SECTION,
  DELEGATION_LINE,
  DEPENDENCIES_SECTION,
  DEPENDENCY_ENTRY,
  DEPENDENCY_FIELDS,
  DIRECTIVE_SECTION,
  ITEM_OBJECTIVE,
  MISSION_INPUTS_LINE,
  OUTPUT_SECTION,
  ROLE_SECTION,
  ROUTE_ENTRY,
  ROUTES_SECTION,
  SEQUENTIAL_OBJECTIVE,
  SEQUENTIAL_OUTPUT,
  SEQUENTIAL_SECTION,
} from './commander-templates.ts';
import { fillTemplate } from './fill.ts';

/** An agent as the commander's prompt lists it. */
export interface PromptAgent {
  name: string;
  personality: string;
}

/** A completed ancestor: its summary and, when it has structured output, its fields. */
export interface PromptDependency {
  task: string;
  summary: string;
  fields?: ReadonlyArray<{ name: string; type: string }>;
}

/** A router's route: key, kind and the condition the commander checks. */
export interface PromptRoute {
  key: string;
  kind: 'task' | 'mission';
  condition: string;
}

/** Everything the commander's system prompt says; ancestors in topological order. */
export interface CommanderPromptSpec {
  task: string;
  directive?: string;
  agents: readonly PromptAgent[];
  dependencies: readonly PromptDependency[];
  output?: CompiledSchema;
  routes?: readonly PromptRoute[];
  sequential: boolean;
}

/** The commander's system prompt: present sections only, always in the same order. */
export function commanderSystemPrompt(spec: CommanderPromptSpec): string {
  const sections = [
    fillTemplate(ROLE_SECTION, {
      task: spec.task,
      delegation: spec.agents.length > 0 ? DELEGATION_LINE : '',
    }),
  ];
  const directive = spec.directive?.trim() ?? '';
  if (directive !== '') sections.push(fillTemplate(DIRECTIVE_SECTION, { directive }));
  if (spec.agents.length > 0) sections.push(agentsSection(spec.agents));
  if (spec.dependencies.length > 0) sections.push(dependenciesSection(spec.dependencies));
  if (spec.output !== undefined) {
    sections.push(fillTemplate(OUTPUT_SECTION, { fields: describeSchemaForPrompt(spec.output) }));
  }
  if (spec.routes !== undefined && spec.routes.length > 0)
    sections.push(routesSection(spec.routes));
  if (spec.sequential) {
    const output = spec.output === undefined ? '' : SEQUENTIAL_OUTPUT;
    sections.push(fillTemplate(SEQUENTIAL_SECTION, { output }));
  }
  return sections.join('\n\n');
}

/** Characters of a personality the agent list shows at most. */
export const HEADLINE_MAX_CHARS = 160;

/**
 * The opening of a personality, so the list stays short: its first line, continued over the
 * following lines of the paragraph while it has not ended a sentence (wrapped text), cut at
 * HEADLINE_MAX_CHARS with an ellipsis when longer.
 */
export function personalityHeadline(personality: string): string {
  const lines = personality.trim().split('\n');
  let headline = '';
  for (const line of lines) {
    const text = line.trim();
    if (text === '') break;
    headline = headline === '' ? text : `${headline} ${text}`;
    if (/[.!?:]$/.test(text)) break;
  }
  if (headline.length <= HEADLINE_MAX_CHARS) return headline;
  return `${headline.slice(0, HEADLINE_MAX_CHARS - 1).trimEnd()}…`;
}

function agentsSection(agents: readonly PromptAgent[]): string {
  const entries = agents.map((agent) =>
    fillTemplate(AGENT_ENTRY, {
      name: agent.name,
      personality: personalityHeadline(agent.personality),
    }),
  );
  return fillTemplate(AGENTS_SECTION, { agents: entries.join('\n') });
}

function dependenciesSection(dependencies: readonly PromptDependency[]): string {
  const entries = dependencies.map((dependency) => {
    const entry = fillTemplate(DEPENDENCY_ENTRY, {
      task: dependency.task,
      summary: dependency.summary.trim(),
    });
    if (dependency.fields === undefined || dependency.fields.length === 0) return entry;
    const fields = dependency.fields.map((field) => `${field.name} (${field.type})`).join(', ');
    return `${entry}\n${fillTemplate(DEPENDENCY_FIELDS, { fields })}`;
  });
  return fillTemplate(DEPENDENCIES_SECTION, { dependencies: entries.join('\n') });
}

function routesSection(routes: readonly PromptRoute[]): string {
  const entries = routes.map((route) =>
    fillTemplate(ROUTE_ENTRY, {
      key: route.key,
      kind: route.kind === 'mission' ? ' (mission)' : '',
      condition: route.condition.trim(),
    }),
  );
  const text = fillTemplate(ROUTES_SECTION, { routes: entries.join('\n') });
  return routes.some((route) => route.kind === 'mission')
    ? `${text}\n${MISSION_INPUTS_LINE}`
    : text;
}

/** The first user message of a parallel iteration: objective, then the item as JSON. */
export function itemObjectiveMessage(
  objective: string,
  dataset: string,
  index: number,
  item: unknown,
): string {
  return fillTemplate(ITEM_OBJECTIVE, {
    objective,
    dataset,
    index: String(index),
    item: JSON.stringify(item),
  });
}

/** The first user message of a sequential task: objective, item count, the dataset_next step. */
export function sequentialObjectiveMessage(
  objective: string,
  dataset: string,
  count: number,
): string {
  return fillTemplate(SEQUENTIAL_OBJECTIVE, { objective, dataset, count: String(count) });
}
