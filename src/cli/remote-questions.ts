/**
 * Answers to a served run's questions from `sortie attach`'s TUI: the questions come from the
 * run's `human.asked` and `human.answered` events; a reply is checked here as the run's desk
 * would check it (so the prompt says what is wrong at once), then sent to the server's inbox
 * (`GET /api/questions?run_id=`, `POST /api/questions/{id}/answer`). The question closes when
 * the server's `human.answered` arrives.
 */
import type { MissionEvent } from '../base/events.ts';
import { reasonOf } from '../base/reason.ts';
import { checkReply } from '../runtime/human-answers.ts';
import type { HumanQuestion } from '../tools/builtins/human-ask.ts';
import type { ServeClient } from './serve-client.ts';

function key(actor: string, callId: string): string {
  return `${actor}\u0000${callId}`;
}

/** The open questions of one served run, answered through its server. */
export class RemoteQuestions {
  private readonly open = new Map<string, HumanQuestion>();

  constructor(
    private readonly client: ServeClient,
    private readonly runId: string,
    private readonly onError: (message: string) => void,
  ) {}

  /** Follows the run's events: which questions are open. */
  observe(event: MissionEvent): void {
    if (event.type === 'human.asked') {
      const { seq: _seq, time: _time, runId: _runId, type: _type, callId, ...question } = event;
      this.open.set(key(event.actor, callId), question);
    } else if (event.type === 'human.answered') {
      this.open.delete(key(event.actor, event.callId));
    }
  }

  /** What is wrong with the reply, or undefined once it is on its way to the server. */
  answer(actor: string, callId: string, reply: string | readonly string[]): string | undefined {
    const question = this.open.get(key(actor, callId));
    if (question === undefined) return undefined;
    const checked = checkReply(question, reply);
    if (!checked.ok) return checked.problem;
    this.send(actor, callId, reply).catch((error: unknown) => this.onError(reasonOf(error)));
    return undefined;
  }

  private async send(actor: string, callId: string, reply: string | readonly string[]) {
    const listed = await this.client.json(
      'GET',
      `/api/questions?run_id=${encodeURIComponent(this.runId)}`,
    );
    const questions = (listed.questions ?? []) as Array<Record<string, unknown>>;
    const waiting = questions.find(
      (question) => question.actor === actor && question.callId === callId,
    );
    // Not waiting any more (answered elsewhere, timed out): its human.answered says how.
    if (waiting === undefined) return;
    await this.client.json('POST', `/api/questions/${String(waiting.id)}/answer`, {
      answer: reply,
    });
  }
}
