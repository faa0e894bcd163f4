/**
 * `ask_commander` forks. The first question to a finished commander forks its conversation;
 * later questions, from any task, go to the same fork one at a time (SerialQueue) and build on
 * the earlier questions and answers. A fork may call `ask_agent` on its own agents, nothing else.
 */
import { parseToolArguments } from '../../tools/define-tool.ts';
import { askAgentTool } from '../../tools/commander/index.ts';
import { toolResult } from '../../tools/tool-result.ts';
import { reasonOf, textOf, toolCallsOf } from '../../machines/turn-types.ts';
import type { Message, ToolCallPart, ToolResultPart } from '../../models/model-types.ts';
import { actorId } from '../../base/events.ts';
import { SerialQueue } from '../../runtime/serial-queue.ts';
import type { AgentCallResult, RunServices } from '../contracts.ts';
import type { CommanderRecord } from './commander-registry.ts';
import { withUserText } from './conversation-helpers.ts';

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
    signal: AbortSignal,
  ): Promise<ForkAnswer> {
    return this.queue.run(
      record.actorId,
      () => this.answer(record, question, budgetTask, signal),
      signal,
    );
  }

  private async answer(
    record: CommanderRecord,
    question: string,
    budgetTask: string,
    signal: AbortSignal,
  ): Promise<ForkAnswer> {
    const forkId = actorId.fork(record.actorId);
    const tools = [...record.agents.values()].some((session) => session.finishedOnce)
      ? [askAgentTool]
      : [];
    let conversation = withUserText(
      this.conversations.get(record.actorId) ?? record.messages,
      question,
    );
    this.appended(forkId, conversation.at(-1) as Message);
    try {
      for (let turn = 1; turn <= MAX_FORK_TURNS; turn += 1) {
        const { response } = await this.services.runModelTurn({
          actor: forkId,
          task: budgetTask,
          model: record.model,
          ...(record.reasoning !== undefined ? { reasoning: record.reasoning } : {}),
          system: record.system,
          messages: conversation,
          tools,
          signal,
        });
        conversation = [...conversation, response.message];
        this.appended(forkId, response.message);
        const calls = toolCallsOf(response.message);
        if (calls.length === 0) {
          this.conversations.set(record.actorId, conversation);
          return { ok: true, answer: textOf(response.message) };
        }
        const results: ToolResultPart[] = [];
        for (const call of calls) results.push(await this.runCall(record, forkId, call, signal));
        const message: Message = { role: 'user', parts: results };
        conversation = [...conversation, message];
        this.appended(forkId, message);
      }
      this.conversations.set(record.actorId, conversation);
      return { ok: false, reason: `the answer took more than ${MAX_FORK_TURNS} model turns` };
    } catch (error) {
      return { ok: false, reason: reasonOf(error) };
    }
  }

  /** One tool call of the fork: `ask_agent` on the commander's own agents; anything else refused. */
  private async runCall(
    record: CommanderRecord,
    forkId: string,
    call: ToolCallPart,
    signal: AbortSignal,
  ): Promise<ToolResultPart> {
    const { bus, gate, redact } = this.services;
    const started = performance.now();
    bus.emit({
      type: 'tool.called',
      actor: forkId,
      callId: call.id,
      tool: call.name,
      arguments: call.arguments,
    });
    let content: string;
    let isError = true;
    if (call.name !== askAgentTool.name) {
      content = toolResult.error(`only ask_agent is available while answering questions`);
    } else {
      const parsed = parseToolArguments(askAgentTool, call.arguments);
      if (!parsed.ok)
        content = toolResult.error('invalid arguments for ask_agent', {
          problems: parsed.problems,
        });
      else {
        await gate.before(
          { kind: 'tool', actor: forkId, tool: call.name, detail: redact(call.arguments) },
          signal,
        );
        const name = String(parsed.args.agent_id);
        const session = record.agents.get(name);
        if (session === undefined || !session.finishedOnce) {
          const names = [...record.agents.keys()].join(', ') || 'none';
          content = toolResult.error(
            `agent "${name}" has not worked for this commander; available: ${names}`,
          );
        } else {
          const reply: AgentCallResult = await session.ask(String(parsed.args.question), signal);
          isError = !reply.ok;
          content = reply.ok
            ? toolResult.ok({ agent: name, answer: reply.result })
            : toolResult.error(`agent "${name}" failed: ${reply.reason}`);
        }
      }
    }
    const result: ToolResultPart = {
      type: 'tool_result',
      callId: call.id,
      name: call.name,
      content,
      isError,
    };
    bus.emit({
      type: 'tool.completed',
      actor: forkId,
      callId: call.id,
      tool: call.name,
      result: content,
      isError,
      durationMs: Math.round(performance.now() - started),
    });
    return result;
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
