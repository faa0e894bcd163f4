/**
 * The askers of a resumed agent. A tool call the restart cut short while its MCP server was
 * asking the person is called again; the server then asks its questions again, and those the
 * person had already answered get the journaled answer without anyone being asked twice. The
 * rest (and every question outside such a call) go to the run's askers as usual.
 */
import type { HumanAskers } from '../../runtime/human-desk.ts';
import type { HumanAsker } from '../../tools/builtins/human-ask.ts';
import { elicitingCallOf } from '../../tools/mcp/mcp-elicitation.ts';
import type { RestoredConversation } from '../contracts.ts';

export class JournaledAnswers implements HumanAskers {
  /** The calls being made again after the restart: only their questions are looked up. */
  private readonly repeating = new Set<string>();

  constructor(
    private readonly askers: HumanAskers,
    private readonly restored: RestoredConversation | undefined,
  ) {}

  /** Runs `work`, the call `callId` made again, its questions answered from the journal. */
  async repeat<T>(callId: string, work: () => Promise<T>): Promise<T> {
    this.repeating.add(callId);
    try {
      return await work();
    } finally {
      this.repeating.delete(callId);
    }
  }

  /** The asker of `actor`: the journal's answer when it has one for a repeated call's question. */
  askerFor(actor: string): HumanAsker {
    const asker = this.askers.askerFor(actor);
    return {
      ask: (question, call) => {
        const journaled = this.answerOf(call.callId);
        return journaled === undefined ? asker.ask(question, call) : Promise.resolve(journaled);
      },
    };
  }

  private answerOf(questionCallId: string): string | undefined {
    const asking = elicitingCallOf(questionCallId);
    if (asking === undefined || !this.repeating.has(asking)) return undefined;
    return this.restored?.toolResult(questionCallId)?.content;
  }
}
