/**
 * `builtins_human_ask`: an agent asks the person running the mission a question (free text,
 * one choice, or several) and waits for the answer. Who answers — the terminal UI, the
 * terminal, a script of answers, or nobody — is the run's business: the tool hands the
 * question to a `HumanAsker` and returns its answer verbatim.
 */
import { randomUUID } from 'node:crypto';
import type { EventPayloads } from '../../base/events.ts';
import { defineTool, objectSchema } from '../define-tool.ts';
import type { AgentTool } from './agent-tool.ts';
import { errorOutcome, textOutcome } from './agent-tool.ts';

/** The model-visible name (config reference `builtins.human.ask`). */
export const HUMAN_ASK_TOOL = 'builtins_human_ask';

/** The answer when no person can be asked (headless, `--json`, `--no-human`). */
export const NO_HUMAN_AVAILABLE = '[no human available]';

/** The answer when the person did not answer within the timeout. */
export function noResponseWithin(seconds: number): string {
  return `[no human response within ${seconds}s]`;
}

/**
 * A question as the person sees it: the `human.asked` event's fields but the call id
 * (`timeoutSeconds` here is what the agent asked for; null waits until answered).
 */
export type HumanQuestion = Omit<EventPayloads['human.asked'], 'callId'>;

/** Whoever answers for the run; bound to the asking actor. */
export interface HumanAsker {
  /**
   * The answer the agent gets: the person's text or choice, a JSON array of choices, or one of
   * the bracketed notices. Rejects only when `signal` aborts.
   */
  ask(question: HumanQuestion, call: { callId: string; signal: AbortSignal }): Promise<string>;
}

const DEFINITION = defineTool({
  name: HUMAN_ASK_TOOL,
  description:
    'Ask the person running the mission a question and wait for the answer. Offer `choices` ' +
    'when the answer is one of a few options (with `multi_select` to allow several; the answer ' +
    'is then a JSON array of the chosen ones). The answer may instead be "[no human available]" ' +
    'or "[no human response within Ns]": then decide without the person.',
  parameters: objectSchema(['question'], {
    question: { type: 'string', description: 'The question, complete on its own.' },
    short_summary: {
      type: 'string',
      description: 'A one-line summary of the question (80 characters at most).',
    },
    additional_context: {
      type: 'string',
      description: 'Background the person needs to answer, in markdown.',
    },
    choices: {
      type: 'array',
      items: { type: 'string', minLength: 1 },
      uniqueItems: true,
      description: 'The options to choose from; leave out for a free-text answer.',
    },
    multi_select: {
      type: 'boolean',
      default: false,
      description: 'Allow several choices (only with choices).',
    },
    timeout_seconds: {
      type: 'number',
      description: 'Stop waiting after this many seconds; leave out (or 0) to wait.',
    },
  }),
});

/** The question the arguments (already validated against the schema) describe. */
export function humanQuestionOf(args: Record<string, unknown>): HumanQuestion {
  const choices = (args.choices as string[] | undefined) ?? [];
  const timeout = args.timeout_seconds as number | undefined;
  const text = (name: string): string | null => {
    const value = args[name] as string | undefined;
    return value === undefined || value.trim() === '' ? null : value;
  };
  return {
    question: args.question as string,
    choices,
    multiSelect: choices.length > 0 && args.multi_select === true,
    shortSummary: text('short_summary'),
    additionalContext: text('additional_context'),
    timeoutSeconds: timeout === undefined || timeout <= 0 ? null : timeout,
  };
}

/** The tool for one agent, asking through `asker`. */
export function createHumanAskTool(asker: HumanAsker): AgentTool {
  return {
    definition: DEFINITION,
    async execute(args, context) {
      const question = humanQuestionOf(args);
      if (question.question.trim() === '') {
        return errorOutcome('question is required: write the question for the person');
      }
      const blank = question.choices.findIndex((choice) => choice.trim() === '');
      if (blank >= 0) {
        return errorOutcome(`choices[${blank}] is blank: every choice needs words to pick`);
      }
      const callId = context.callId ?? randomUUID();
      return textOutcome(await asker.ask(question, { callId, signal: context.signal }));
    },
  };
}
