/**
 * What `sortie worker` prints: on a terminal one status line rewritten in place (items running,
 * done, failed, handed back); otherwise a line when it is ready, one per settled item and one when it stops.
 */
import type { ItemJobData, ItemJobResult } from '../actors/queue/index.ts';
import type { CliIo } from './io.ts';

/** The worker's counts and how they are shown. */
export class WorkerStatus {
  private running = 0;
  private done = 0;
  private failed = 0;
  private handed = 0;

  constructor(
    private readonly io: CliIo,
    private readonly url: string,
    private readonly concurrency: number,
  ) {}

  ready(): void {
    this.io.stderr(
      `sortie worker: taking items from ${this.url} (concurrency ${this.concurrency})\n`,
    );
    this.redraw();
  }

  started(_data: ItemJobData): void {
    this.running += 1;
    this.redraw();
  }

  settled(data: ItemJobData, result: ItemJobResult | Error): void {
    this.running -= 1;
    const ok = !(result instanceof Error) && result.outcome.status === 'succeeded';
    if (ok) this.done += 1;
    else this.failed += 1;
    const why =
      result instanceof Error
        ? `error: ${result.message}`
        : result.outcome.status === 'succeeded'
          ? 'succeeded'
          : `failed: ${result.outcome.error}`;
    this.itemSettled(data, why);
  }

  /** An item went back to the queue unfinished (the worker is stopping). */
  handedBack(data: ItemJobData): void {
    this.running -= 1;
    this.handed += 1;
    this.itemSettled(data, 'handed back');
  }

  stopping(): void {
    this.io.stderr(`${this.io.stderrIsTty ? '\n' : ''}stopping: finishing ${this.running} items\n`);
  }

  stopped(): void {
    const handed = this.handed > 0 ? `, ${this.handed} handed back to the queue` : '';
    this.io.stderr(
      `sortie worker stopped: ${this.done} succeeded, ${this.failed} failed${handed}\n`,
    );
  }

  /** On a terminal the status line shows the counts; otherwise a line says how the item ended. */
  private itemSettled(data: ItemJobData, how: string): void {
    if (this.io.stderrIsTty) this.redraw();
    else this.io.stderr(`${data.runId} ${data.task}[${data.index}] try ${data.attempt} ${how}\n`);
  }

  private redraw(): void {
    if (!this.io.stderrIsTty) return;
    const handed = this.handed > 0 ? ` · ${this.handed} handed back` : '';
    this.io.stderr(
      `\r\u001b[2Ksortie worker · ${this.url} · ${this.running} running · ${this.done} done · ${this.failed} failed${handed}`,
    );
  }
}
