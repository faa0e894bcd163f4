/**
 * What a model turn shows of its prompt: the parts of `model.request` that changed since the
 * actor's previous request, and the step gate's one-line detail.
 */
import type { Message, ResolvedModel, ToolDefinition } from '../models/model-types.ts';

/** Characters of the last message shown in a gate point's detail line. */
const DETAIL_PREVIEW_CHARS = 80;

/** What an actor sent last (undefined before its first request). */
export interface ActorPrompts {
  system: string | undefined;
  tools: readonly ToolDefinition[] | undefined;
}

/**
 * What `model.request` carries of the prompt: the system prompt and the tool list only when
 * they changed since the actor's previous request (both on its first), and records them as
 * the actor's last. Tool lists are usually the same array or a new array of the same
 * definition objects (result tools get appended), so they are compared element by element
 * first and by JSON only when some definition object differs.
 */
export function promptChanges(
  last: ActorPrompts,
  system: string,
  tools: ToolDefinition[],
): { system?: string; tools?: ToolDefinition[] } {
  const changes: { system?: string; tools?: ToolDefinition[] } = {};
  if (last.system !== system) changes.system = system;
  if (last.tools === undefined || !sameTools(last.tools, tools)) changes.tools = tools;
  last.system = system;
  last.tools = tools;
  return changes;
}

function sameTools(before: readonly ToolDefinition[], after: readonly ToolDefinition[]): boolean {
  if (before === after) return true;
  if (before.length !== after.length) return false;
  if (before.every((tool, index) => tool === after[index])) return true;
  return JSON.stringify(before) === JSON.stringify(after);
}

/** One line for the person at the step gate: model, conversation length, last message. */
export function gateDetail(model: ResolvedModel, messages: readonly Message[]): string {
  const last = messages.at(-1);
  const count = `${messages.length} message${messages.length === 1 ? '' : 's'}`;
  const head = `models.${model.config}.${model.key} (${model.apiName}), ${count}`;
  if (last === undefined) return head;
  return `${head}, last ${last.role}: ${preview(last)}`;
}

function preview(message: Message): string {
  const text = message.parts
    .map((part) => {
      if (part.type === 'text') return part.text;
      if (part.type === 'tool_call') return `[call ${part.name}]`;
      if (part.type === 'tool_result') return `[result ${part.name}]`;
      return `[${part.type}]`;
    })
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > DETAIL_PREVIEW_CHARS ? `${text.slice(0, DETAIL_PREVIEW_CHARS)}…` : text;
}
