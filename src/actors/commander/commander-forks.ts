/**
 * `ask_commander` forks. The first question to a finished commander forks its conversation;
 * later questions, from any task, go to the same fork one at a time (SerialQueue) and build on
 * the earlier questions and answers. A fork runs on the agent machine with an ask-only tool set
 * (`ask_agent` on the commander's own agents) and `MAX_FORK_TURNS` as its turn cap.
 */
import { agentMachine } from '../../machines/agent.machine.ts';
import type { AgentEnvironment, AgentResult } from '../../machines/agent.machine.ts';
import { reasonOf } from '../../base/reason.ts';
import { toolCallsOf } from '../../machines/turn-types.ts';
import type { Message } from '../../models/model-types.ts';
import { actorId } from '../../base/events.ts';
import { SerialQueue } from '../../runtime/serial-queue.ts';
import type { RunServices } from '../contracts.ts';
import { runToEnd, type InvokedBy } from '../run-to-end.ts';
import type { CommanderRecord } from './commander-registry.ts';
import { withUserText } from './conversation-helpers.ts';
import { executeForkTool, forkTools } from './fork-tools.ts';

/** Model turns one answer may take (each `ask_agent` round costs one). */
export const MAX_FORK_TURNS = 20;

/** What the fork's answer produced: the text, or why there is none. */
export type ForkAnswer = { ok: true; answer: string } | { ok: false; reason: string };

/** The forks of one mission's finished commanders. */
export class CommanderForks {
  private readonly queue = new SerialQueue();
  /** Each fork's conversation so far, by the commander's actor id. */
  private readonly conversations = new Map<string, Message[]>();

  constructor(private readonly services: RunServices) {}

  /**
   * Resumed run: the fork of `record` as its journaled questions left it. Only questions that
   * got their answer count, as in a live fork (a failed answer leaves the fork as it was).
   */
  restore(record: CommanderRecord, journaled: readonly Message[]): void {
    let conversation: readonly Message[] | undefined;
    let round: Message[] = [];
    for (const message of journaled) {
      const asks = message.role === 'user' && message.parts.some((part) => part.type === 'text');
      round = asks ? [message] : [...round, message];
      if (message.role === 'assistant' && toolCallsOf(message).length === 0 && round.length > 1) {
        const base = conversation ?? record.messages;
        // The first question was added to the commander's last message when that was a user
        // message (withUserText): the round's first message replaces it.
        conversation = [...(base.at(-1)?.role === 'user' ? base.slice(0, -1) : base), ...round];
        round = [];
      }
    }
    if (conversation !== undefined) this.conversations.set(record.actorId, [...conversation]);
  }

  /** Asks the commander of `record`; `budgetTask` is the asking task (its budget pays). */
  ask(
    record: CommanderRecord,
    question: string,
    budgetTask: string,
    by: InvokedBy,
  ): Promise<ForkAnswer> {
    return this.queue.run(
      record.actorId,
      () => this.answer(record, question, budgetTask, by),
      by.signal,
    );
  }

  private async answer(
    record: CommanderRecord,
    question: string,
    budgetTask: string,
    by: InvokedBy,
  ): Promise<ForkAnswer> {
    const forkId = actorId.fork(record.actorId);
    const conversation = withUserText(
      this.conversations.get(record.actorId) ?? record.messages,
      question,
    );
    this.appended(forkId, conversation.at(-1) as Message);
    let result: AgentResult;
    try {
      result = await runToEnd(
        agentMachine,
        {
          messages: conversation,
          maxTurns: MAX_FORK_TURNS,
          environment: this.forkEnvironment(record, forkId, budgetTask),
        },
        by.signal,
        'the question was cancelled',
        by.parent === undefined ? {} : { parent: by.parent },
      );
    } catch (error) {
      return { ok: false, reason: reasonOf(error) };
    }
    if (result.answer !== null) {
      this.conversations.set(record.actorId, result.messages);
      return { ok: true, answer: result.answer };
    }
    // A failed model request leaves the fork as it was; a turn cap keeps what it reached.
    if (result.turnCapReached) {
      this.conversations.set(record.actorId, result.messages);
      return { ok: false, reason: `the answer took more than ${MAX_FORK_TURNS} model turns` };
    }
    return { ok: false, reason: result.failure?.reason ?? 'the fork stopped without an answer' };
  }

  /** The fork of `record`'s model turns (its model, system prompt and ask-only tools) and tools. */
  private forkEnvironment(
    record: CommanderRecord,
    forkId: string,
    budgetTask: string,
  ): AgentEnvironment {
    const { services } = this;
    const tools = forkTools(record);
    return {
      conversation: forkId,
      bus: services.bus,
      modelTurn: async (input, signal) => {
        const { response } = await services.runModelTurn({
          actor: forkId,
          task: budgetTask,
          model: record.model,
          ...(record.reasoning !== undefined ? { reasoning: record.reasoning } : {}),
          system: record.system,
          messages: input.messages,
          tools,
          signal,
        });
        return response;
      },
      // ask_agent waits at the step gate in executeForkTool, once its arguments are checked.
      holdCall: () => Promise.resolve(),
      // A fork's only tool is ask_agent: its refusals are the fork's answers, not failures to debug.
      holdFailures: () => Promise.resolve(),
      executeTool: (input, signal) => executeForkTool(services, record, forkId, input.call, signal),
    };
  }

  private appended(conversation: string, message: Message): void {
    this.services.bus.emit({
      type: 'message.appended',
      actor: conversation,
      conversation,
      message,
    });
  }
}
