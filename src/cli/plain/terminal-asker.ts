/**
 * Questions to the person on a plain terminal (`--plain`, or a terminal without the TUI): each
 * `human.asked` is shown with its actor and choices and read with readline, one at a time in
 * the order asked (others wait in a queue); the line typed goes to the run's desk, and lines
 * read while no question is shown (piped input) answer the next ones. Readline in
 * line mode (not raw): the terminal keeps its own line editing and Ctrl-C stays the signal
 * that cancels the run.
 */
import { createInterface, type Interface } from 'node:readline';
import type { EventOf, MissionEvent } from '../../base/events.ts';
import type { HumanDesk } from '../../runtime/human-desk.ts';

type Asked = EventOf<'human.asked'>;

/** What the asker reads from and writes to. */
export interface TerminalAskerOptions {
  input: NodeJS.ReadableStream;
  write: (text: string) => void;
}

/** The prompt of one question: who asks, the question, its context and choices. */
export function questionPrompt(event: Asked): string {
  const lines = [`? ${event.actor} asks: ${event.question}`];
  if (event.additionalContext !== null) {
    lines.push(...event.additionalContext.split('\n').map((line) => `  ${line}`));
  }
  event.choices.forEach((choice, index) => lines.push(`  ${index + 1}) ${choice}`));
  if (event.multiSelect) lines.push('  (several: numbers or texts separated by commas)');
  else if (event.choices.length > 0) lines.push('  (a number or the text)');
  if (event.timeoutSeconds !== null) lines.push(`  (waits ${event.timeoutSeconds}s)`);
  return `${lines.join('\n')}\n> `;
}

export class TerminalAsker {
  private readonly queue: Asked[] = [];
  private lines: Interface | undefined;
  private desk: HumanDesk | undefined;
  /** Lines read while no question was shown (piped input): the next questions take them. */
  private readonly typedAhead: string[] = [];
  /** The input has ended: once the lines typed ahead are used, nobody answers any more. */
  private ended = false;

  constructor(private readonly options: TerminalAskerOptions) {}

  /** The desk answers go to (the run's, known once it started). */
  attach(desk: HumanDesk): void {
    this.desk = desk;
  }

  /** Takes the run's events: questions join the queue, answers leave it. */
  onEvent(event: MissionEvent): void {
    if (event.type === 'human.asked') {
      this.queue.push(event);
      if (this.queue.length === 1) this.show();
      return;
    }
    if (event.type !== 'human.answered') return;
    const index = this.queue.findIndex(
      (asked) => asked.actor === event.actor && asked.callId === event.callId,
    );
    if (index < 0) return;
    this.queue.splice(index, 1);
    // Answered another way (timeout, withdrawn) while shown: say so, then the next one.
    if (index === 0 && event.how !== 'person') this.options.write(`(${event.answer})\n`);
    if (index === 0 && this.queue.length > 0) this.show();
  }

  /** Stops reading the terminal (the run ended). */
  dispose(): void {
    const lines = this.lines;
    this.lines = undefined;
    lines?.close();
    this.options.input.pause();
  }

  private show(): void {
    const current = this.queue[0];
    if (current === undefined) return;
    this.listen();
    this.options.write(questionPrompt(current));
    const line = this.typedAhead.shift();
    if (line !== undefined) this.reply(line);
    else if (this.ended) this.desk?.personLeft();
  }

  private listen(): void {
    if (this.lines !== undefined) return;
    const lines = createInterface({ input: this.options.input, terminal: false });
    lines.on('line', (line) => this.reply(line));
    // End of input (Ctrl-D): nobody is there to answer any more.
    lines.on('close', () => {
      if (this.lines !== lines) return;
      this.ended = true;
      if (this.typedAhead.length === 0) this.desk?.personLeft();
    });
    this.lines = lines;
  }

  private reply(line: string): void {
    const current = this.queue[0];
    if (current === undefined || this.desk === undefined) {
      this.typedAhead.push(line);
      return;
    }
    const problem = this.desk.answer(current.actor, current.callId, line);
    if (problem !== undefined) this.options.write(`${problem}\n> `);
  }
}
