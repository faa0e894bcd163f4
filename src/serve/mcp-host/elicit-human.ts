/**
 * A served run's questions to the person (`builtins.human.ask`) put to the MCP client that
 * started it, as a form elicitation: a choice list for questions with choices (several picks
 * for a multi-select one), a text field otherwise. A client that cannot elicit gets none: its
 * runs answer as headless runs do (`[no human available]` at once).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ElicitRequestFormParams, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { SortieError } from '../../base/errors.ts';
import type { AskedQuestion, HumanAnswerer } from '../../runtime/human-desk.ts';
import type { Redactor } from '../../base/redact.ts';

/** What the person's form asks for, by the question's kind. */
function answerField(asked: AskedQuestion): ElicitRequestFormParams['requestedSchema'] {
  const title = 'Answer';
  const field =
    asked.choices.length === 0
      ? { type: 'string' as const, title }
      : asked.multiSelect
        ? {
            type: 'array' as const,
            title,
            items: { type: 'string' as const, enum: [...asked.choices] },
          }
        : { type: 'string' as const, title, enum: [...asked.choices] };
  return { type: 'object', properties: { answer: field }, required: ['answer'] };
}

/** The question's text as the form shows it: the context the agent gave, then the question. */
function formMessage(asked: AskedQuestion): string {
  const context = asked.additionalContext === null ? '' : `\n\n${asked.additionalContext}`;
  return `${asked.actor} asks: ${asked.question}${context}`;
}

/**
 * The answerer of one run's questions, or `[]` (nobody answers) when the client cannot elicit.
 * `relatedRequest` ties each question to the tool call that runs the mission, so a Streamable
 * HTTP client gets it on that call's stream; `redact` masks the run's secrets in what is sent.
 */
export function elicitingHuman(
  server: McpServer,
  relatedRequest: RequestId | undefined,
  redact: () => Redactor,
): HumanAnswerer | readonly [] {
  if (server.server.getClientCapabilities()?.elicitation === undefined) return [];
  return async (asked, { signal }) => {
    const result = await server.server.elicitInput(
      { mode: 'form', message: redact()(formMessage(asked)), requestedSchema: answerField(asked) },
      { signal, ...(relatedRequest === undefined ? {} : { relatedRequestId: relatedRequest }) },
    );
    const answer = result.content?.answer;
    if (result.action !== 'accept' || answer === undefined) {
      // The desk turns a failed answerer into `[no human available]` and a warning saying why.
      throw new SortieError(`the MCP client's person chose ${result.action} instead of answering`);
    }
    return Array.isArray(answer) ? answer.map(String) : String(answer);
  };
}
