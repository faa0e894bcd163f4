import { describe, expect, it } from 'vitest';
import { createPlainPrinter } from '../../../src/cli/plain/index.ts';
import { EventBus } from '../../../src/runtime/event-bus.ts';
import type { EventInput } from '../../../src/base/events.ts';

const START = Date.parse('2026-01-01T10:00:00.000Z');
const ERASE = '\r\u001b[2K';
const MODEL = {
  provider: 'openai',
  config: 'openai',
  key: 'gpt_4o_mini',
  apiName: 'gpt-4o-mini',
} as const;

/** A plain printer on a "terminal" of `columns`, with a hand-moved clock and ticker. */
function terminalLog(columns = 100) {
  let out = '';
  let now = START;
  let tick: () => void = () => undefined;
  let ticking = true;
  const bus = new EventBus({ runId: 'run-1', now: () => new Date(now) });
  const printer = createPlainPrinter({
    write: (text) => void (out += text),
    color: false,
    status: {
      columns: () => columns,
      now: () => now,
      ticker: (each) => {
        tick = each;
        return () => (ticking = false);
      },
    },
  });
  bus.subscribe((event) => printer.onEvent(event));
  return {
    at(offset: number, input?: EventInput): void {
      now = START + offset;
      if (input !== undefined) bus.emit(input);
      else if (ticking) tick();
    },
    take(): string {
      const taken = out;
      out = '';
      return taken;
    },
    printer,
  };
}

const request = (actor: string, requestId: string): EventInput => ({
  type: 'model.request',
  actor,
  requestId,
  model: MODEL,
  turn: 1,
  system: 's',
  messageCount: 1,
  tools: [],
  reasoning: null,
});

describe('the status line of the line log on a terminal', () => {
  it('shows elapsed time, who works, tokens and cost once the log is quiet, in place', () => {
    const log = terminalLog();
    log.at(0, { type: 'run.started', actor: 'run', mission: 'm', resumed: false });
    log.at(100, request('commander:fetch', 'r1'));
    log.at(200, {
      type: 'tool.called',
      actor: 'agent:fetch/reader',
      callId: 'c1',
      tool: 'file_read',
      arguments: '{}',
    });
    expect(log.take()).toBe(
      '00:00.0 run  started run run-1 (mission m)\n00:00.2 agent:fetch/reader  → file_read\n',
    );
    log.at(900); // quiet for 0.7 s only
    expect(log.take()).toBe('');
    log.at(1200);
    expect(log.take()).toBe(
      `${ERASE}… 00:01.2 · working: commander:fetch, agent:fetch/reader · 0 tokens · $0.0000`,
    );
    log.at(1700);
    expect(log.take()).toBe(
      `${ERASE}… 00:01.7 · working: commander:fetch, agent:fetch/reader · 0 tokens · $0.0000`,
    );
    // A tool that ends prints no line; the status line follows who still works.
    log.at(1800, {
      type: 'tool.completed',
      actor: 'agent:fetch/reader',
      callId: 'c1',
      tool: 'file_read',
      result: 'ok',
      isError: false,
      durationMs: 1600,
    });
    log.at(2000);
    expect(log.take()).toBe(`${ERASE}… 00:02.0 · working: commander:fetch · 0 tokens · $0.0000`);
    // A log line takes the status line's place.
    log.at(2100, {
      type: 'model.response',
      actor: 'commander:fetch',
      requestId: 'r1',
      model: MODEL,
      message: { role: 'assistant', parts: [] },
      usage: { input: 1200, output: 300, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
      costPico: '360000000',
      unpriced: false,
      stopReason: 'end',
      durationMs: 2000,
    });
    expect(log.take()).toBe(
      `${ERASE}00:02.1 commander:fetch  model openai.gpt_4o_mini: 1,200 in, 300 out · $0.0004 · 2.0s\n`,
    );
    log.at(4000);
    expect(log.take()).toBe('');
  });

  it('is cut to the terminal width, so it never wraps', () => {
    const log = terminalLog(30);
    log.at(0, request('commander:a-task-with-a-long-name', 'r1'));
    log.take();
    log.at(2000);
    expect(log.take()).toBe(`${ERASE}… 00:02.0 · working: command…`);
    // The summary erases it, and it stays away.
    log.printer.printSummary();
    expect(log.take().startsWith(`${ERASE}costs:`)).toBe(true);
    log.at(9000);
    expect(log.take()).toBe('');
  });

  it('shows nothing while nobody works or while a question waits for the person', () => {
    const log = terminalLog();
    log.at(0, { type: 'run.started', actor: 'run', mission: 'm', resumed: false });
    log.take();
    log.at(5000);
    expect(log.take()).toBe('');
    log.at(5000, request('commander:t', 'r1'));
    log.take();
    log.at(7000);
    expect(log.take()).toBe(`${ERASE}… 00:07.0 · working: commander:t · 0 tokens · $0.0000`);
    log.at(7000, {
      type: 'human.asked',
      actor: 'agent:t/a',
      callId: 'h1',
      question: 'ok?',
      choices: [],
      multiSelect: false,
      shortSummary: null,
      additionalContext: null,
      timeoutSeconds: null,
    });
    expect(log.take()).toBe(`${ERASE}00:07.0 agent:t/a  asks the person: ok?\n`);
    log.at(9000);
    expect(log.take()).toBe('');
  });

  it('forgets the requests of a task that ended', () => {
    const log = terminalLog();
    log.at(0, request('commander:t[2]', 'r1'));
    log.at(10, { type: 'task.failed', actor: 'task:t', task: 't', error: 'boom', durationMs: 10 });
    log.take();
    log.at(5000);
    expect(log.take()).toBe('');
  });
});
