/**
 * The `flow` mission project of the per-provider CLI tests and its script: every path that
 * succeeds, chaining into the mission `second`. `MODEL` in the HCL is replaced by the
 * provider's model reference.
 */
import type { ScriptTurn } from '../../src/testing/index.ts';
import { call, plainTask, reply } from './engine-harness.ts';

/** The commander block every mission of these tests uses. */
export const COMMANDER = `commander {
    model = MODEL
  }`;

/** Three scored things; `name` is each item's id. */
export const THINGS = `dataset "things" {
    schema = {
      name   = string("Name", true)
      points = number("Points", true)
      kind   = string("Kind", true)
    }
    items = [
      { name = "ant", points = 1, kind = "bug" },
      { name = "bee", points = 5, kind = "bug" },
      { name = "cat", points = 3, kind = "pet" },
    ]
  }`;

/**
 * A DAG (`left` ∥ `right` → `score`), a parallel iteration with a retry and structured
 * output queried by `report` (filters, every aggregate, `ask_agent` on `left`'s agent),
 * routers (chosen, `none`, first-one-wins), `send_to` fan-out, a sequential iteration with
 * per-item plans asking `left` follow-ups, questions to the sequential commander across its
 * items, and a route to the mission `second` with inputs.
 */
export const FLOW_HCL = `
agent "researcher" {
  model       = MODEL
  personality = "You research."
}

mission "flow" {
  directive = "Exercise every path"
  ${COMMANDER}
  ${THINGS}
  task "left" {
    objective = "Left"
    agents    = [agents.researcher]
  }
  task "right" {
    objective = "Right"
  }
  task "score" {
    objective  = "Score \${item.name}"
    depends_on = [tasks.left, tasks.right]
    iterator {
      dataset           = datasets.things
      parallel          = true
      concurrency_limit = 2
      max_retries       = 1
    }
    output = {
      name   = string("Name", true)
      points = number("Points", true)
      kind   = string("Kind", true)
    }
  }
  task "walk" {
    objective  = "Walk the things"
    depends_on = [tasks.left]
    iterator {
      dataset  = datasets.things
      parallel = false
    }
    output = {
      points = number("Points", true)
    }
  }
  task "report" {
    objective  = "Report"
    depends_on = [tasks.score]
    router {
      route {
        target    = tasks.publish
        condition = "Good"
      }
      route {
        target    = tasks.redo
        condition = "Gaps"
      }
    }
  }
  task "recap" {
    objective  = "Recap"
    depends_on = [tasks.walk, tasks.report]
    router {
      route {
        target    = tasks.publish
        condition = "Worth sharing"
      }
    }
  }
  task "audit" {
    objective  = "Audit"
    depends_on = [tasks.report]
    router {
      route {
        target    = tasks.archive
        condition = "Stale"
      }
    }
  }
  task "handoff" {
    objective  = "Hand off"
    depends_on = [tasks.recap, tasks.audit]
    router {
      route {
        target    = missions.second
        condition = "Always"
      }
    }
  }
  task "publish" {
    objective = "Publish"
    send_to   = [tasks.notify_a, tasks.notify_b]
  }
  task "notify_a" {
    objective = "Notify A"
    send_to   = [tasks.notify_b]
  }
  task "notify_b" {
    objective = "Notify B"
  }
  task "redo" {
    objective = "Redo"
  }
  task "archive" {
    objective = "Archive"
  }
}

mission "second" {
  ${COMMANDER}
  inputs = {
    topic = string("The topic", true)
    depth = integer("How deep", { default = 2 })
  }
  task "dig" {
    objective = "Dig into \${inputs.topic} at depth \${inputs.depth}"
  }
}
`;

/** One item's commander of `score`: plan, complete, submit, finish. */
function scoreItem(index: number, output: Record<string, unknown>): ScriptTurn[] {
  const commander = `commander:score[${index}]`;
  return [
    call(commander, 'set_subtasks', { subtasks: ['Score'] }),
    call(commander, 'complete_subtask'),
    call(commander, 'submit_output', { output }),
    call(commander, 'task_complete', { summary: `scored ${String(output.name)}` }),
  ];
}

/** A router task: plan, complete, then finish choosing `route`. */
function routerTask(task: string, route: string, extra: ScriptTurn[] = []): ScriptTurn[] {
  const commander = `commander:${task}`;
  return [
    call(commander, 'set_subtasks', { subtasks: ['Decide'] }),
    ...extra,
    call(commander, 'complete_subtask'),
    call(commander, 'task_complete', { summary: `${task} chose ${route}`, route }),
  ];
}

/** The queries `report` makes of `score`: one filtered page, then each aggregate. */
export const REPORT_QUERIES: Array<Record<string, unknown>> = [
  {
    task: 'score',
    filters: [{ field: 'points', op: 'gte', value: 3 }],
    order_by: 'points',
    desc: true,
  },
  { task: 'score', aggregate: { op: 'count' } },
  {
    task: 'score',
    filters: [{ field: 'kind', op: 'eq', value: 'bug' }],
    aggregate: { op: 'sum', field: 'points' },
  },
  { task: 'score', aggregate: { op: 'avg', field: 'points' } },
  { task: 'score', aggregate: { op: 'min', field: 'points' } },
  { task: 'score', aggregate: { op: 'max', field: 'points' } },
  { task: 'score', aggregate: { op: 'distinct', field: 'kind' } },
  {
    task: 'score',
    aggregate: { op: 'group_by', group_by: 'kind', group_op: 'sum', field: 'points' },
  },
];

/** The script of `flow` and `second`. */
export function flowTurns(): ScriptTurn[] {
  const walk = 'commander:walk';
  const leftFork = 'commander:left#fork';
  const walkFork = 'commander:walk#fork';
  const walkItem = (index: number, points: number, asking: ScriptTurn[]): ScriptTurn[] => [
    call(walk, 'dataset_next'),
    call(walk, 'set_subtasks', { subtasks: [`Item ${index}`] }),
    ...asking,
    call(walk, 'submit_output', { output: { points } }),
    call(walk, 'complete_subtask'),
  ];
  return [
    ...plainTask('left', 'researcher', 'Left found two sources'),
    ...plainTask('right', null, 'Right is done'),
    ...scoreItem(0, { name: 'ant', points: 1, kind: 'bug' }),
    call('commander:score[1]', 'task_complete', { succeed: false, reason: 'no data yet' }),
    ...scoreItem(1, { name: 'bee', points: 5, kind: 'bug' }),
    ...scoreItem(2, { name: 'cat', points: 3, kind: 'pet' }),
    ...walkItem(0, 10, [
      call(walk, 'ask_commander', { task_name: 'left', question: 'Which source first?' }),
      reply(leftFork, 'Source A first.'),
    ]),
    ...walkItem(1, 50, [
      call(walk, 'ask_commander', { task_name: 'left', question: 'And after A?' }),
      reply(leftFork, 'Then source B.', { contains: 'Source A first.' }),
    ]),
    ...walkItem(2, 30, []),
    call(walk, 'dataset_next'),
    call(walk, 'task_complete', { summary: 'Walked 3 things' }),
    ...routerTask('report', 'publish', [
      ...REPORT_QUERIES.map((query) => call('commander:report', 'query_task_output', query)),
      call('commander:report', 'ask_agent', {
        agent_id: 'researcher',
        question: 'What did you skip?',
      }),
      reply('agent:left/researcher#fork', 'I skipped paywalled sources.'),
    ]),
    ...routerTask('recap', 'publish', [
      call('commander:recap', 'ask_commander', {
        task_name: 'walk',
        question: 'How did item 0 go?',
        index: 0,
      }),
      reply(walkFork, 'Item 0 scored 10.'),
      call('commander:recap', 'ask_commander', {
        task_name: 'walk',
        question: 'And item 2, compared?',
        index: 2,
      }),
      reply(walkFork, 'Item 2 scored 30, above item 0.', { contains: 'Item 0 scored 10.' }),
      call('commander:recap', 'list_commander_questions', { task_name: 'walk' }),
    ]),
    ...routerTask('audit', 'none'),
    ...plainTask('publish', null, 'Published'),
    ...plainTask('notify_a', null, 'Notified A'),
    ...plainTask('notify_b', null, 'Notified B'),
    call('commander:handoff', 'set_subtasks', { subtasks: ['Hand off'] }),
    call('commander:handoff', 'complete_subtask'),
    call('commander:handoff', 'task_complete', {
      summary: 'Handing off',
      route: 'second',
      mission_inputs: { topic: 'tides' },
    }),
    ...plainTask('dig', null, 'Dug into tides'),
  ];
}
