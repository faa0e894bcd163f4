import { describe, expect, it } from 'vitest';
import { createPlainPrinter } from '../../../src/cli/plain/index.ts';
import { EventBus } from '../../../src/runtime/event-bus.ts';
import type { EventInput } from '../../../src/base/events.ts';
import type { Usage } from '../../../src/models/model-types.ts';

const START = Date.parse('2026-01-01T10:00:00.000Z');
const USAGE: Usage = { input: 1200, output: 300, cacheRead: 0, cacheWrite: 0, reasoning: 0 };
const MODEL = {
  provider: 'openai',
  config: 'openai',
  key: 'gpt_4o_mini',
  apiName: 'gpt-4o-mini',
} as const;

/** Emits events through the real bus, each at the given offset from the start (ms). */
function printRun(
  steps: Array<[number, EventInput]>,
  options: { quiet?: boolean; color?: boolean } = {},
): string {
  let out = '';
  let now = START;
  const bus = new EventBus({ runId: 'run-1', now: () => new Date(now) });
  const printer = createPlainPrinter({
    write: (text) => void (out += text),
    color: options.color ?? false,
    quiet: options.quiet,
    dependencies: new Map([
      ['research/fetch', []],
      ['research/analyze', ['fetch']],
    ]),
  });
  bus.subscribe((event) => printer.onEvent(event));
  for (const [offset, input] of steps) {
    now = START + offset;
    bus.emit(input);
  }
  printer.printSummary();
  return out;
}

const RUN: Array<[number, EventInput]> = [
  [0, { type: 'run.started', actor: 'run', mission: 'research', resumed: false }],
  [
    10,
    {
      type: 'mission.started',
      actor: 'mission:research',
      mission: 'research',
      inputs: { topic: 'tides' },
      chainedFrom: null,
    },
  ],
  [
    100,
    {
      type: 'task.started',
      actor: 'task:fetch',
      task: 'fetch',
      activatedBy: null,
      iterated: false,
    },
  ],
  [
    200,
    {
      type: 'model.request',
      actor: 'commander:fetch',
      requestId: 'r1',
      model: MODEL,
      turn: 1,
      system: 's',
      messageCount: 1,
      tools: [],
      reasoning: null,
    },
  ],
  [250, { type: 'model.delta', actor: 'commander:fetch', requestId: 'r1', text: 'thinking' }],
  [
    1400,
    {
      type: 'model.response',
      actor: 'commander:fetch',
      requestId: 'r1',
      model: MODEL,
      message: { role: 'assistant', parts: [] },
      usage: USAGE,
      costPico: '360000000',
      unpriced: false,
      stopReason: 'tool_use',
      durationMs: 1200,
    },
  ],
  [
    1500,
    {
      type: 'tool.called',
      actor: 'agent:fetch/researcher',
      callId: 'c1',
      tool: 'builtins_http_get',
      arguments: JSON.stringify({ url: 'https://example.com/tides/' + 'x'.repeat(90) }),
    },
  ],
  [
    1600,
    {
      type: 'tool.completed',
      actor: 'agent:fetch/researcher',
      callId: 'c1',
      tool: 'builtins_http_get',
      result: 'HTTP 404',
      isError: true,
      durationMs: 100,
    },
  ],
  [
    1700,
    {
      type: 'tool.called',
      actor: 'commander:fetch',
      callId: 'c2',
      tool: 'set_subtasks',
      arguments: '{"subtasks":["a","b"],"note":1}',
    },
  ],
  [
    1800,
    {
      type: 'plan.updated',
      actor: 'commander:fetch',
      task: 'fetch',
      index: null,
      subtasks: [
        { index: 0, title: 'Fetch the page', status: 'in_progress' },
        { index: 1, title: 'Sum up', status: 'pending' },
      ],
    },
  ],
  [
    3200,
    {
      type: 'output.submitted',
      actor: 'commander:fetch',
      task: 'fetch',
      index: null,
      output: { pages: 2 },
      replaced: false,
    },
  ],
  [
    3250,
    {
      type: 'task.succeeded',
      actor: 'task:fetch',
      task: 'fetch',
      summary: 'Fetched two pages\nmore detail',
      output: { pages: 2 },
      route: null,
      durationMs: 3150,
    },
  ],
  [
    3300,
    {
      type: 'task.started',
      actor: 'task:analyze',
      task: 'analyze',
      activatedBy: null,
      iterated: true,
    },
  ],
  [
    3310,
    { type: 'dataset.locked', actor: 'task:analyze', dataset: 'pages', task: 'analyze', count: 20 },
  ],
  [
    12000,
    {
      type: 'iteration.succeeded',
      actor: 'task:analyze',
      task: 'analyze',
      index: 2,
      itemId: 'i2',
      attempt: 1,
      output: 'ok',
      durationMs: 800,
    },
  ],
  [
    12100,
    {
      type: 'iteration.retrying',
      actor: 'task:analyze',
      task: 'analyze',
      index: 3,
      itemId: 'i3',
      attempt: 2,
      maxAttempts: 3,
      error: 'timeout',
    },
  ],
  [
    12200,
    {
      type: 'iteration.failed',
      actor: 'task:analyze',
      task: 'analyze',
      index: 3,
      itemId: 'i3',
      attempt: 3,
      error: 'timeout again',
      final: true,
    },
  ],
  [
    13000,
    {
      type: 'warning',
      actor: 'agent:analyze[0]/researcher',
      code: 'reasoning',
      message: 'gpt_4o_mini cannot reason; reasoning ignored',
    },
  ],
  [
    39000,
    {
      type: 'task.failed',
      actor: 'task:analyze',
      task: 'analyze',
      error: '1 of 20 items failed',
      durationMs: 35700,
    },
  ],
  [
    40100,
    {
      type: 'mission.failed',
      actor: 'mission:research',
      mission: 'research',
      error: 'task analyze failed',
      failedTask: 'analyze',
      durationMs: 40090,
    },
  ],
  [
    40150,
    {
      type: 'run.finished',
      actor: 'run',
      outcome: 'failed',
      exitCode: 1,
      durationMs: 40150,
      usage: USAGE,
      costPico: '360000000',
    },
  ],
];

describe('plain line log', () => {
  it('prints one line per meaningful event, then tasks, outputs and costs', () => {
    expect(printRun(RUN).split('\n')).toEqual([
      '00:00.0 run  started run run-1 (mission research)',
      '00:00.0 mission:research  started · inputs {"topic":"tides"}',
      '00:00.1 task:fetch  started',
      '00:01.4 commander:fetch  model openai.gpt_4o_mini: 1,200 in, 300 out · $0.0004 · 1.2s',
      `00:01.5 agent:fetch/researcher  → builtins_http_get https://example.com/tides/${'x'.repeat(53)}…`,
      '00:01.6 agent:fetch/researcher  ✗ builtins_http_get: HTTP 404',
      '00:01.7 commander:fetch  → set_subtasks {"subtasks":["a","b"],"note":1}',
      '00:01.8 commander:fetch  plan 0/2 done · now: Fetch the page',
      '00:03.2 commander:fetch  output submitted: {"pages":2}',
      '00:03.2 task:fetch  succeeded: Fetched two pages',
      '00:03.3 task:analyze  started (depends on fetch) (iterated)',
      '00:03.3 task:analyze  dataset pages locked: 20 items',
      '00:12.0 task:analyze  iteration 3/20 succeeded',
      '00:12.1 task:analyze  iteration 4/20 retrying (attempt 2/3): timeout',
      '00:12.2 task:analyze  iteration 4/20 failed (attempt 3): timeout again',
      '00:13.0 agent:analyze[0]/researcher  warning: gpt_4o_mini cannot reason; reasoning ignored',
      '00:39.0 task:analyze  failed: 1 of 20 items failed',
      '00:40.1 mission:research  failed: task analyze failed · 2 tasks · 1,500 tokens · $0.0004',
      '00:40.1 run  failed · exit 1 · 40.1s · $0.0004',
      'tasks:',
      // The final answer is printed whole: two lines do not fit the row.
      '  fetch    succeeded',
      '      Fetched two pages',
      '      more detail',
      '  analyze  failed · items 1 succeeded, 1 failed  1 of 20 items failed',
      'outputs:',
      '  fetch    {"pages":2}',
      '  analyze  {"2":"ok"}',
      'costs:',
      '  openai.gpt_4o_mini  1 request  1,500 tokens  $0.0004',
      '  total               1 request  1,500 tokens  $0.0004',
      '',
    ]);
  });

  it('prints the mission line of the spec for a succeeded mission', () => {
    const out = printRun(
      [
        [
          0,
          {
            type: 'mission.started',
            actor: 'mission:research',
            mission: 'research',
            inputs: {},
            chainedFrom: null,
          },
        ],
        [
          500,
          {
            type: 'model.response',
            actor: 'commander:fetch',
            requestId: 'r1',
            model: MODEL,
            message: { role: 'assistant', parts: [] },
            usage: { input: 48000, output: 210, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
            costPico: '412100000000',
            unpriced: false,
            stopReason: 'end',
            durationMs: 400,
          },
        ],
        [
          40100,
          {
            type: 'mission.succeeded',
            actor: 'mission:research',
            mission: 'research',
            durationMs: 40100,
          },
        ],
      ],
      { quiet: false },
    );
    expect(out.split('\n')[2]).toBe(
      '00:40.1 mission:research  succeeded · 0 tasks · 48,210 tokens · $0.4121',
    );
  });

  it('prints a final answer longer than the row whole, below it', () => {
    const answer = `The tides at Lisbon: ${'high at dawn, low at noon; '.repeat(5)}done.`;
    const out = printRun(
      [
        [
          0,
          {
            type: 'task.started',
            actor: 'task:fetch',
            task: 'fetch',
            activatedBy: null,
            iterated: false,
          },
        ],
        [
          10,
          {
            type: 'task.succeeded',
            actor: 'task:fetch',
            task: 'fetch',
            summary: answer,
            output: null,
            route: null,
            durationMs: 10,
          },
        ],
      ],
      { quiet: true },
    );
    expect(out.split('\n').slice(0, 3)).toEqual([
      'tasks:',
      '  fetch  succeeded',
      `      ${answer}`,
    ]);
  });

  it('shows control characters from events escaped, in the lines and the summary, colours kept', () => {
    // Every "tides" (the mission's input, a tool's URL, the task's output) carries escapes.
    const hostile = JSON.parse(
      JSON.stringify(RUN).replaceAll('tides', 'ti\\u001b]0;T\\u0007\\u001b[31mdes'),
    ) as Array<[number, EventInput]>;
    // Arguments are JSON text: an escape inside a string is decoded only when shown.
    hostile.splice(5, 0, [
      1550,
      {
        type: 'tool.called',
        actor: 'agent:fetch/researcher',
        callId: 'c9',
        tool: 'builtins_http_get',
        arguments: JSON.stringify({ url: 'https://x.test/\u001b]0;T\u0007' }),
      },
    ]);
    const out = printRun(hostile, { color: true });
    const shown = 'ti\\x1b]0;T\\x07\\x1b[31mdes';
    expect(out).toContain(shown);
    // Only the painter's own SGR colours are left as escapes.
    // eslint-disable-next-line no-control-regex -- the painter's escapes, on purpose
    const ownColours = /\u001b\[(?:2|22|31|32|33|36|39)m/g;
    expect(out).toMatch(ownColours);
    // eslint-disable-next-line no-control-regex -- looking for control characters
    expect(out.replace(ownColours, '')).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/);
    expect(out.replace(ownColours, '')).toContain(
      'agent:fetch/researcher  → builtins_http_get https://x.test/\\x1b]0;T\\x07\n',
    );
  });

  it('prints a failed chat as a failed task: its line, the mission line and the summary row', () => {
    const chat = 'agent:chat/fetcher';
    const out = printRun([
      [
        0,
        {
          type: 'run.started',
          actor: 'run',
          mission: 'chat',
          resumed: false,
          chat: { agent: 'fetcher' },
        },
      ],
      [
        10,
        {
          type: 'mission.started',
          actor: 'mission:chat',
          mission: 'chat',
          inputs: {},
          chainedFrom: null,
        },
      ],
      [
        20,
        {
          type: 'task.started',
          actor: 'task:chat',
          task: 'chat',
          activatedBy: null,
          iterated: false,
        },
      ],
      [
        30,
        {
          type: 'tool.called',
          actor: chat,
          callId: 'c1',
          tool: 'builtins_http_get',
          arguments: '{}',
        },
      ],
      [
        1500,
        {
          type: 'task.failed',
          actor: 'task:chat',
          task: 'chat',
          error: 'the agent stopped',
          durationMs: 1480,
        },
      ],
      [
        1500,
        {
          type: 'mission.failed',
          actor: 'mission:chat',
          mission: 'chat',
          error: 'task "chat" failed: the agent stopped',
          failedTask: 'chat',
          durationMs: 1490,
        },
      ],
    ]);
    expect(out.split('\n')).toEqual([
      '00:00.0 run  started run run-1 (mission chat)',
      '00:00.0 mission:chat  started',
      '00:00.0 task:chat  started',
      '00:00.0 agent:chat/fetcher  → builtins_http_get',
      '00:01.5 task:chat  failed: the agent stopped',
      '00:01.5 mission:chat  failed: task "chat" failed: the agent stopped · 1 task · 0 tokens · $0.0000',
      'tasks:',
      '  chat  failed  the agent stopped',
      'costs: no model requests',
      '',
    ]);
  });

  it('prints only the summary when quiet', () => {
    expect(printRun(RUN.slice(0, 6), { quiet: true })).toBe(
      [
        'tasks:',
        '  fetch  running',
        'costs:',
        '  openai.gpt_4o_mini  1 request  1,500 tokens  $0.0004',
        '  total               1 request  1,500 tokens  $0.0004',
        '',
      ].join('\n'),
    );
  });

  it('marks unpriced models in the costs', () => {
    const out = printRun([
      [
        0,
        {
          type: 'model.response',
          actor: 'commander:t',
          requestId: 'r1',
          model: { ...MODEL, key: 'mystery' },
          message: { role: 'assistant', parts: [] },
          usage: USAGE,
          costPico: '0',
          unpriced: true,
          stopReason: 'end',
          durationMs: 10,
        },
      ],
    ]);
    expect(out.split('\n').slice(-5)).toEqual([
      'costs:',
      '  openai.mystery  1 request  1,500 tokens  $0.0000*',
      '  total           1 request  1,500 tokens  $0.0000*',
      '* some models have no known price; their turns count as $0',
      '',
    ]);
  });

  it('colours only when asked', () => {
    const plain = printRun(RUN.slice(0, 3));
    const colored = printRun(RUN.slice(0, 3), { color: true });
    expect(plain).not.toContain('\u001b[');
    expect(colored).toContain(
      '\u001b[2m00:00.0\u001b[22m \u001b[36mrun\u001b[39m  started run run-1',
    );
  });
});
