/**
 * A multi-task mission for resume tests and the state-based script that drives it: each
 * actor's next reply follows from how many tool calls its conversation already holds, so a
 * run resumed at any point gets the same answers a run without a crash gets.
 *
 * gather (agent with a tool, plan, output) → each (parallel over 3 items, output) →
 * report (queries `each`, asks gather's agent) .
 */
import type { RespondRequest, ScriptTurn } from '../../../src/testing/index.ts';
import { call } from '../../helpers/script-turns.ts';
import { modelPreamble } from '../../helpers/model-preamble.ts';

/** The project (openai at `vars.base_url`). */
export const RESUME_PROJECT = `
${modelPreamble()}agent "worker" {
  model       = models.main.gpt_4o_mini
  personality = "You count things."
  tools       = [builtins.utils.current_time]
}
mission "resumable" {
  commander {
    model = models.main.gpt_4o_mini
  }
  agents = [agents.worker]
  scratchpad = true
  inputs = {
    topic = string("What to count", true)
    token = string("A token nobody may see", { protected = true, default = "unset" })
  }
  dataset "things" {
    items = [{ name = "ant" }, { name = "bee" }, { name = "cat" }]
  }
  task "gather" {
    objective = "Count the \${inputs.topic}"
    output = {
      count = number("How many", true)
    }
  }
  task "each" {
    objective = "Describe \${item.name}"
    depends_on = [tasks.gather]
    iterator {
      dataset = datasets.things
      parallel = true
      concurrency_limit = 2
    }
    output = {
      text = string("Description", true)
    }
  }
  task "report" {
    objective = "Report"
    depends_on = [tasks.each]
  }
}
`;

/** What every successful run ends with. */
export const EXPECTED_OUTPUTS = {
  gather: { count: 3 },
  each: [{ text: 'thing 0' }, { text: 'thing 1' }, { text: 'thing 2' }],
};

const ANSWER = 'There are 3 things.';

type Step = ScriptTurn;

const GATHER: Step[] = [
  call('set_subtasks', { subtasks: ['Count'] }),
  call('call_agent', { name: 'worker', task: 'Count the things' }),
  call('complete_subtask', {}),
  call('submit_output', { output: EXPECTED_OUTPUTS.gather }),
  call('task_complete', { summary: 'Counted 3 things' }),
];

function itemSteps(index: number): Step[] {
  return [
    call('set_subtasks', { subtasks: ['Describe'] }),
    call('complete_subtask', {}),
    call('submit_output', { output: EXPECTED_OUTPUTS.each[index] }),
    call('task_complete', { summary: `described item ${index}` }),
  ];
}

const REPORT: Step[] = [
  call('set_subtasks', { subtasks: ['Report'] }),
  call('complete_subtask', {}),
  call('query_task_output', { task: 'each', aggregate: { op: 'count' } }),
  call('ask_agent', { agent_id: 'gather/worker', question: 'How many were there?' }),
  call('task_complete', { summary: 'Reported' }),
];

const WORKER: Step[] = [
  call('builtins_utils_current_time', {}),
  { text: ANSWER, usage: { input: 50, output: 8 } },
];

interface InputItem {
  type?: string;
  call_id?: string;
  output?: unknown;
}

/**
 * How many steps the request's conversation (OpenAI Responses input) has done: its tool
 * calls, except those a restart interrupted — like a model, the script calls those again.
 */
export function callsSoFar(body: unknown): number {
  const input = (body as { input?: unknown }).input;
  if (!Array.isArray(input)) return 0;
  const items = input as InputItem[];
  const interrupted = new Set(
    items
      .filter((item) => item.type === 'function_call_output')
      .filter((item) => JSON.stringify(item.output).includes('interrupted by a restart'))
      .map((item) => item.call_id),
  );
  return items.filter((item) => item.type === 'function_call' && !interrupted.has(item.call_id))
    .length;
}

/** The scripted server's `respond`: each actor's next step. */
export function respondToResumable(request: RespondRequest): ScriptTurn | undefined {
  const actor = request.actor ?? '';
  if (actor.endsWith('#fork')) return { text: 'Three.', usage: { input: 60, output: 2 } };
  const steps =
    actor === 'commander:gather'
      ? GATHER
      : actor === 'commander:report'
        ? REPORT
        : actor === 'agent:gather/worker'
          ? WORKER
          : /^commander:each\[(\d)\]$/.test(actor)
            ? itemSteps(Number(/\[(\d)\]/.exec(actor)?.[1]))
            : [];
  return steps[callsSoFar(request.body)];
}
