/**
 * Prompt prefix stability (quality.md: "bytes shared with the previous request of the same
 * actor ≥ 95% after the first turn"), measured on OpenAI Responses request bodies as the
 * scripted model server recorded them. The prompt is the system text (`instructions`) followed
 * by each input item's JSON, in order; the share is the length of the prefix two consecutive
 * prompts have in common over the earlier prompt's length. The tool list is judged apart: it
 * is stable when the earlier list is a prefix of the later one (tools are only ever appended).
 */

/** One request's prompt bytes and tool names. */
interface RequestPrompt {
  prompt: string;
  tools: string[];
}

function promptOf(body: unknown): RequestPrompt {
  const request = body as {
    instructions?: string;
    input: unknown[];
    tools?: Array<{ name: string }>;
  };
  const prompt =
    (request.instructions ?? '') + request.input.map((item) => JSON.stringify(item)).join('');
  return { prompt, tools: (request.tools ?? []).map((tool) => tool.name) };
}

function commonPrefixLength(left: string, right: string): number {
  const limit = Math.min(left.length, right.length);
  let index = 0;
  while (index < limit && left.charCodeAt(index) === right.charCodeAt(index)) index++;
  return index;
}

/** Each request after the first: the share of the previous prompt it repeats, and whether its tools only grew. */
export interface PrefixStep {
  share: number;
  toolsAppendOnly: boolean;
}

/** The prefix stability of consecutive requests of one actor (bodies in order). */
export function prefixStability(bodies: readonly unknown[]): PrefixStep[] {
  const prompts = bodies.map(promptOf);
  return prompts.slice(1).map((next, index) => {
    const previous = prompts[index] as RequestPrompt;
    const shared = commonPrefixLength(previous.prompt, next.prompt);
    return {
      share: shared / previous.prompt.length,
      toolsAppendOnly: previous.tools.every((name, position) => next.tools[position] === name),
    };
  });
}
