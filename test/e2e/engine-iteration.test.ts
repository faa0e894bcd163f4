import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ScriptTurn } from '../../src/testing/index.ts';
import {
  call,
  cleanUp,
  eventsOf,
  plainTask,
  runEngine,
  sentMessages,
  wireRequests,
} from './engine-harness.ts';

afterEach(cleanUp);

const THINGS = `
  dataset "things" {
    schema = {
      name = string("Name", true)
      points = number("Points", true)
    }
    items = [
      { name = "ant", points = 1 },
      { name = "bee", points = 5 },
      { name = "cat", points = 3 },
    ]
  }`;

/** One item's commander: plan, complete, submit, finish. */
function itemTurns(task: string, index: number, output: Record<string, unknown>): ScriptTurn[] {
  const commander = `commander:${task}[${index}]`;
  return [
    call(commander, 'set_subtasks', { subtasks: ['Score'] }),
    call(commander, 'complete_subtask'),
    call(commander, 'submit_output', { output }),
    call(commander, 'task_complete', { summary: `scored ${String(output.name)}` }),
  ];
}

/** The three item commanders of task "score", each scoring its thing of THINGS. */
function scoreTurns(): ScriptTurn[] {
  return [
    ...itemTurns('score', 0, { name: 'ant', points: 1 }),
    ...itemTurns('score', 1, { name: 'bee', points: 5 }),
    ...itemTurns('score', 2, { name: 'cat', points: 3 }),
  ];
}

/** A parallel task scoring the three things at once, each item's commander as scripted. */
function scoreAllThings() {
  const hcl = `
mission "score" {
  commander {
    model = MODEL
  }
  ${THINGS}
  task "score" {
    objective = "Score \${item.name}"
    iterator {
      dataset = datasets.things
      parallel = true
      concurrency_limit = 3
    }
    output = {
      name = string("Name", true)
      points = number("Points", true)
    }
  }
}`;
  return runEngine({
    hcl,
    mission: 'score',
    turns: scoreTurns(),
  });
}

describe('parallel iteration', () => {
  it('announces a task that starts with the mission before its dataset lock and first item', async () => {
    const { events } = await scoreAllThings();
    const order = events
      .filter((event) =>
        ['task.started', 'dataset.locked', 'iteration.started'].includes(event.type),
      )
      .map((event) => event.type);
    expect(order.slice(0, 3)).toEqual(['task.started', 'dataset.locked', 'iteration.started']);
  });

  it("sends each item's first request before the next item's commander starts", async () => {
    const { events } = await scoreAllThings();
    // The three tries start in one action of the iteration machine; their commanders start
    // one by one after it, each once the one before has sent its first request.
    const starts = events.flatMap((event) => {
      if (event.type === 'message.appended' && event.message.role === 'user')
        return [`objective ${event.actor}`];
      if (event.type === 'model.request') return [`request ${event.actor}`];
      return [];
    });
    expect(starts.slice(0, 6)).toEqual([
      'objective commander:score[0]',
      'request commander:score[0]',
      'objective commander:score[1]',
      'request commander:score[1]',
      'objective commander:score[2]',
      'request commander:score[2]',
    ]);
  });

  it('runs one commander per item, and the output is queried downstream with filters and an aggregate', async () => {
    const hcl = `
mission "score" {
  commander {
    model = MODEL
  }
  ${THINGS}
  task "score" {
    objective = "Score \${item.name}"
    iterator {
      dataset = datasets.things
      parallel = true
      concurrency_limit = 2
    }
    output = {
      name = string("Name", true)
      points = number("Points", true)
    }
  }
  task "report" {
    objective = "Report"
    depends_on = [tasks.score]
  }
}`;
    const { result, events, server } = await runEngine({
      hcl,
      mission: 'score',
      turns: [
        ...scoreTurns(),
        ...plainTask('report', null, 'Reported', [
          call('commander:report', 'query_task_output', {
            task: 'score',
            filters: [{ field: 'points', op: 'gte', value: 3 }],
            order_by: 'points',
            desc: true,
          }),
          call('commander:report', 'query_task_output', {
            task: 'score',
            aggregate: { op: 'sum', field: 'points' },
          }),
        ]),
      ],
    });
    server.assertDone();
    expect(result.status).toBe('succeeded');
    const score = result.tasks.find((task) => task.name === 'score');
    expect(score?.summary).toBe('iterated over 3 items of dataset things: 3 succeeded, 0 failed');
    expect(score?.items?.map((item) => `${item.index}:${item.itemId}:${item.status}`)).toEqual([
      '0:ant:succeeded',
      '1:bee:succeeded',
      '2:cat:succeeded',
    ]);
    const queries = eventsOf(events, 'tool.completed')
      .filter((event) => event.tool === 'query_task_output')
      .map((event) => JSON.parse(event.result) as Record<string, unknown>);
    expect(queries[0]).toEqual({
      status: 'ok',
      task: 'score',
      total: 2,
      offset: 0,
      limit: 20,
      items: [
        { index: 1, item_id: 'bee', status: 'succeeded', output: { name: 'bee', points: 5 } },
        { index: 2, item_id: 'cat', status: 'succeeded', output: { name: 'cat', points: 3 } },
      ],
    });
    expect(queries[1]).toMatchObject({ status: 'ok', task: 'score', result: 9 });
    expect(eventsOf(events, 'dataset.locked')).toMatchObject([
      { dataset: 'things', task: 'score', count: 3 },
    ]);
    const report = eventsOf(events, 'model.request').find(
      (event) => event.actor === 'commander:report',
    );
    expect(report?.system).toContain(
      '- score: iterated over 3 items of dataset things: 3 succeeded, 0 failed\n  output fields: name (string), points (number)',
    );
    const first = eventsOf(events, 'model.request').find(
      (event) => event.actor === 'commander:score[1]',
    );
    expect(sentMessages(events, first!)[0]).toEqual({
      role: 'user',
      parts: [
        {
          type: 'text',
          text: 'Score bee\n\nItem 1 of dataset "things":\n{"name":"bee","points":5}',
        },
      ],
    });
  });

  const RETRY = (extra: string, limit = 1) => `
mission "retry" {
  commander {
    model = MODEL
  }
  ${THINGS}
  task "score" {
    objective = "Score \${item.name}"
    iterator {
      dataset = datasets.things
      parallel = true
      concurrency_limit = ${limit}
      ${extra}
    }
  }
}`;

  function finish(index: number): ScriptTurn[] {
    const commander = `commander:score[${index}]`;
    return [
      call(commander, 'set_subtasks', { subtasks: ['Score'] }),
      call(commander, 'complete_subtask'),
      call(commander, 'task_complete', { summary: `item ${index}` }),
    ];
  }

  function giveUp(index: number): ScriptTurn {
    return call(`commander:score[${index}]`, 'task_complete', {
      succeed: false,
      reason: 'no data',
    });
  }

  it('retries a failed item with a fresh commander', async () => {
    // xstate's development build warns when an action reaches other actors mid-transition.
    const warn = vi.spyOn(console, 'warn');
    const { result, events, server } = await runEngine({
      hcl: RETRY('max_retries = 1'),
      mission: 'retry',
      turns: [...finish(0), giveUp(1), ...finish(1), ...finish(2)],
    });
    server.assertDone();
    expect(result.status).toBe('succeeded');
    expect(eventsOf(events, 'iteration.retrying')).toMatchObject([
      { task: 'score', index: 1, itemId: 'bee', attempt: 2, maxAttempts: 2, error: 'no data' },
    ]);
    expect(eventsOf(events, 'iteration.failed')).toMatchObject([
      { index: 1, attempt: 1, final: false },
    ]);
    // The retry starts from the objective alone: never the failed conversation.
    const retried = eventsOf(events, 'model.request').filter(
      (event) => event.actor === 'commander:score[1]',
    );
    expect(retried[1]?.messageCount).toBe(1);
    expect(wireRequests(server, 'commander:score[1]')[retried[1]!.turn - 1]?.input).toHaveLength(1);
    expect(warn).not.toHaveBeenCalled();
    warn.mockRestore();
  });

  it('an item failing for good stops the others and fails the task', async () => {
    const { result, events } = await runEngine({
      hcl: RETRY(''),
      mission: 'retry',
      turns: [...finish(0), giveUp(1)],
    });
    expect(result.status).toBe('failed');
    const score = result.tasks[0];
    expect(score?.status).toBe('failed');
    expect(score?.error).toBe('item 1 failed: no data');
    expect(eventsOf(events, 'iteration.started').map((event) => event.index)).toEqual([0, 1]);
  });

  it('with keep-going the remaining items still run and the task fails at the end', async () => {
    const { result, events } = await runEngine({
      hcl: RETRY(''),
      mission: 'retry',
      options: { keepGoing: true },
      turns: [...finish(0), giveUp(1), ...finish(2)],
    });
    expect(result.status).toBe('failed');
    expect(result.tasks[0]?.error).toBe('1 of 3 items failed; first: item 1: no data');
    expect(eventsOf(events, 'iteration.succeeded').map((event) => event.index)).toEqual([0, 2]);
  });

  it('a failed smoketest skips the other items', async () => {
    const { result, events } = await runEngine({
      hcl: RETRY('smoketest = true'),
      mission: 'retry',
      options: { keepGoing: true },
      turns: [giveUp(0)],
    });
    expect(result.status).toBe('failed');
    expect(result.tasks[0]?.error).toBe('smoketest item 0 failed: no data');
    expect(eventsOf(events, 'iteration.started').map((event) => event.index)).toEqual([0]);
  });

  it('a smoketest runs item 0 to the end before the others start', async () => {
    const { result, events } = await runEngine({
      hcl: RETRY('smoketest = true', 3),
      mission: 'retry',
      turns: [...finish(0), ...finish(1), ...finish(2)],
    });
    expect(result.status).toBe('succeeded');
    const order = events
      .filter((event) => event.type === 'iteration.started' || event.type === 'iteration.succeeded')
      .map((event) => `${event.type} ${'index' in event ? event.index : ''}`);
    expect(order.slice(0, 3)).toEqual([
      'iteration.started 0',
      'iteration.succeeded 0',
      'iteration.started 1',
    ]);
  });

  it('an empty dataset succeeds at once', async () => {
    const hcl = `
mission "empty" {
  commander {
    model = MODEL
  }
  dataset "nothing" {
    items = []
  }
  task "each" {
    objective = "Each"
    iterator {
      dataset = datasets.nothing
      parallel = true
    }
  }
}`;
    const { result, server } = await runEngine({ hcl, mission: 'empty', turns: [] });
    expect(result.status).toBe('succeeded');
    expect(result.tasks[0]?.summary).toBe('dataset nothing is empty: there was nothing to iterate');
    expect(server.requests).toHaveLength(0);
  });
});

describe('sequential iteration', () => {
  it('one commander plans each item, submits its output and finishes after exhaustion', async () => {
    const hcl = `
mission "seq" {
  commander {
    model = MODEL
  }
  ${THINGS}
  task "walk" {
    objective = "Walk the things"
    iterator {
      dataset = datasets.things
      parallel = false
    }
    output = {
      points = number("Points", true)
    }
  }
}`;
    const commander = 'commander:walk';
    const perItem = (index: number, points: number): ScriptTurn[] => [
      call(commander, 'dataset_next'),
      call(commander, 'set_subtasks', { subtasks: [`Item ${index}`] }),
      call(commander, 'submit_output', { output: { points } }),
      call(commander, 'complete_subtask'),
    ];
    const { result, events, server } = await runEngine({
      hcl,
      mission: 'seq',
      turns: [
        ...perItem(0, 10),
        ...perItem(1, 50),
        ...perItem(2, 30),
        call(commander, 'dataset_next'),
        call(commander, 'task_complete', { summary: 'Walked 3 things' }),
      ],
    });
    server.assertDone();
    expect(result.status).toBe('succeeded');
    expect(result.tasks[0]?.summary).toBe('Walked 3 things');
    expect(result.tasks[0]?.items?.map((item) => item.output)).toEqual([
      { points: 10 },
      { points: 50 },
      { points: 30 },
    ]);
    expect(
      eventsOf(events, 'plan.updated')
        .filter((event) => event.subtasks.every((s) => s.status === 'in_progress'))
        .map((event) => event.index),
    ).toEqual([0, 1, 2]);
    const first = eventsOf(events, 'model.request')[0];
    expect(sentMessages(events, first!)[0]).toEqual({
      role: 'user',
      parts: [
        {
          type: 'text',
          text: 'Walk the things\n\nThe dataset "things" has 3 items. Call dataset_next to get the first one.',
        },
      ],
    });
    const exhausted = eventsOf(events, 'tool.completed')
      .filter((event) => event.tool === 'dataset_next')
      .at(-1);
    expect(JSON.parse(exhausted?.result ?? '{}')).toEqual({
      status: 'exhausted',
      total: 3,
      processed: 3,
    });
  });

  it('a retry continues from the first item without an accepted output', async () => {
    const hcl = `
mission "seq" {
  commander {
    model = MODEL
  }
  ${THINGS}
  task "walk" {
    objective = "Walk the things"
    iterator {
      dataset = datasets.things
      parallel = false
      max_retries = 1
    }
    output = {
      points = number("Points", true)
    }
  }
}`;
    const commander = 'commander:walk';
    const step = (index: number, points: number): ScriptTurn[] => [
      call(commander, 'dataset_next'),
      call(commander, 'set_subtasks', { subtasks: [`Item ${index}`] }),
      call(commander, 'submit_output', { output: { points } }),
      call(commander, 'complete_subtask'),
    ];
    const { result, events } = await runEngine({
      hcl,
      mission: 'seq',
      turns: [
        ...step(0, 1),
        call(commander, 'task_complete', { succeed: false, reason: 'tired' }),
        ...step(1, 2),
        ...step(2, 3),
        call(commander, 'dataset_next'),
        call(commander, 'task_complete', { summary: 'Done after a retry' }),
      ],
    });
    expect(result.status).toBe('succeeded');
    expect(eventsOf(events, 'iteration.retrying')).toMatchObject([
      { index: 1, attempt: 2, error: 'tired' },
    ]);
    const handedOut = eventsOf(events, 'tool.completed')
      .filter((event) => event.tool === 'dataset_next')
      .map(
        (event) => (JSON.parse(event.result) as { index?: number; status: string }).index ?? 'end',
      );
    expect(handedOut).toEqual([0, 1, 2, 'end']);
    expect(result.tasks[0]?.items?.map((item) => item.output)).toEqual([
      { points: 1 },
      { points: 2 },
      { points: 3 },
    ]);
  });
});

describe('many items at once', () => {
  it('runs 12 items concurrently without a "possible memory leak" warning', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(warning.name);
    };
    process.on('warning', onWarning);
    try {
      const items = Array.from({ length: 12 }, (_, index) => `{ n = ${index} }`).join(', ');
      const { result } = await runEngine({
        hcl: `
mission "wide" {
  commander {
    model = MODEL
  }
  dataset "numbers" {
    items = [${items}]
  }
  task "count" {
    objective = "Count \${item.n}"
    iterator {
      dataset = datasets.numbers
      parallel = true
      concurrency_limit = 12
    }
  }
}`,
        mission: 'wide',
        turns: Array.from({ length: 12 }, (_, index) => [
          call(`commander:count[${index}]`, 'set_subtasks', { subtasks: ['Count'] }),
          call(`commander:count[${index}]`, 'complete_subtask'),
          call(`commander:count[${index}]`, 'task_complete', { summary: `counted ${index}` }),
        ]).flat(),
      });
      expect(result.status).toBe('succeeded');
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });
});
