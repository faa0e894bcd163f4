/**
 * The skill rules of the agent machine, as pure functions over its context: which call loads
 * a skill, which tools need their skill loaded first, and the results the machine gives back.
 */
import { didYouMean } from '../base/suggest.ts';
import type { Message, ToolCallPart } from '../models/model-types.ts';
import { parseToolArguments, type ParsedArguments } from '../tools/define-tool.ts';
import { LOAD_SKILL, LOAD_SKILL_DEFINITION } from '../tools/skills/load-skill.ts';
import { toolResult } from '../tools/tool-result.ts';
import type { ToolOutcome } from './turn-types.ts';

/** A skill an agent may load, as the machine needs it. */
export interface SkillEntry {
  name: string;
  instructions: string;
  /** Model-visible names of the tools loading it adds (those the agent has anyway left out). */
  tools: readonly string[];
}

/** What the skill rules read from the agent's context. */
export interface SkillState {
  skills: readonly SkillEntry[];
  /** Loaded skill names, in load order. */
  loadedSkills: readonly string[];
}

/** Whether `call` is `load_skill` of an agent that has skills (else it is an unknown tool). */
export function loadsSkill(state: SkillState, call: ToolCallPart): boolean {
  return call.name === LOAD_SKILL && state.skills.length > 0;
}

/** The arguments of a `load_skill` call, checked against its schema. */
export function loadSkillArguments(call: ToolCallPart): ParsedArguments {
  return parseToolArguments(LOAD_SKILL_DEFINITION, call.arguments);
}

/** The skill a valid `load_skill` call names (as written; it may not exist). */
export function requestedSkill(call: ToolCallPart): string {
  const parsed = loadSkillArguments(call);
  return parsed.ok ? (parsed.args.name as string) : '';
}

export function findSkill(state: SkillState, name: string): SkillEntry | undefined {
  return state.skills.find((skill) => skill.name === name);
}

export function isLoaded(state: SkillState, name: string): boolean {
  return state.loadedSkills.includes(name);
}

/**
 * The skill a call's tool comes with when none of the loaded skills offers it yet: such a
 * call is refused until that skill is loaded. Undefined for every other tool.
 */
export function skillNeededFor(state: SkillState, toolName: string): string | undefined {
  // Most agents have no skills: the guard on every call then costs one comparison.
  if (state.skills.length === 0) return undefined;
  const offers = (skill: SkillEntry): boolean => skill.tools.includes(toolName);
  const loaded = state.skills.filter((skill) => isLoaded(state, skill.name));
  if (loaded.some(offers)) return undefined;
  return state.skills.find(offers)?.name;
}

/** The instructions as the agent reads them, in a load result or its system prompt. */
export function skillInstructions(skill: SkillEntry): string {
  return `# Skill: ${skill.name}\n\n${skill.instructions.trim()}`;
}

/** The machine's results for the call it answers itself. */
export const skillAnswers = {
  loaded(skill: SkillEntry): ToolOutcome {
    const tools =
      skill.tools.length === 0
        ? 'It adds no tools.'
        : `Tools it adds, offered from your next turn: ${skill.tools.join(', ')}.`;
    return {
      content: `Skill "${skill.name}" loaded. ${tools}\n\n${skillInstructions(skill)}`,
      isError: false,
    };
  },
  loadedTwice(name: string): ToolOutcome {
    return refusal(
      `skill "${name}" is already loaded: its instructions are in your context and its tools are offered`,
    );
  },
  unknown(state: SkillState, name: string): ToolOutcome {
    const names = state.skills.map((skill) => skill.name);
    return refusal(
      `unknown skill "${name}"${didYouMean(name, names)}; your skills: ${names.join(', ')}`,
    );
  },
  invalidArguments(call: ToolCallPart): ToolOutcome {
    const parsed = loadSkillArguments(call);
    const problems = parsed.ok ? [] : parsed.problems;
    return refusal(`invalid arguments for ${LOAD_SKILL}`, { problems });
  },
  needsSkill(tool: string, skill: string): ToolOutcome {
    return refusal(
      `tool "${tool}" comes with skill "${skill}": call ${LOAD_SKILL} with name "${skill}" first`,
    );
  },
};

function refusal(message: string, extra: Record<string, unknown> = {}): ToolOutcome {
  return { content: toolResult.error(message, extra), isError: true };
}

/**
 * The loaded skills whose load result is no longer in `messages` (pruning or compaction
 * dropped it): their instructions go into the system prompt instead, so a loaded skill is
 * never forgotten. Without pruning this is empty and the prompt never changes.
 */
export function skillsOutsideConversation(
  state: SkillState,
  messages: readonly Message[],
): SkillEntry[] {
  if (state.loadedSkills.length === 0) return [];
  const calls = new Map<string, string>();
  const present = new Set<string>();
  for (const message of messages) {
    for (const part of message.parts) {
      if (part.type === 'tool_call' && part.name === LOAD_SKILL) {
        calls.set(part.id, requestedSkill(part));
      }
      if (part.type === 'tool_result' && !part.isError && calls.has(part.callId)) {
        present.add(calls.get(part.callId) ?? '');
      }
    }
  }
  return state.loadedSkills.flatMap((name) => {
    const skill = findSkill(state, name);
    return skill === undefined || present.has(name) ? [] : [skill];
  });
}
