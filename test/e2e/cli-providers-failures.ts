/**
 * The failing mission projects of the per-provider CLI tests and their scripts: `trouble`
 * (failures under `--keep-going`), `smoke` (a failed smoketest failing the mission fast) and
 * `stall` (a request Ctrl-C interrupts).
 */
import type { ScriptTurn } from '../../src/testing/index.ts';
import { COMMANDER, THINGS } from './cli-providers-flow.ts';
import { call, reply } from './engine-harness.ts';

/**
 * An agent whose only tool reads a field of a string argument in its URL template: building
 * the request throws (an EvaluationError inside the tool's execution) before anything is sent.
 */
const WORKER = `agent "fetcher" {
  model       = MODEL
  personality = "You look things up."
  tools       = [tools.lookup]
}

tool "lookup" {
  implements  = builtins.http.get
  description = "Look a city up"
  inputs = {
    city = string("City", true)
  }
  url = "http://127.0.0.1:9/\${inputs.city.name}"
}
`;

/**
 * Under `--keep-going`: a task budget breach (its dependent skipped), a commander that
 * exhausts its nudges, and an agent tool whose execution throws while the task goes on.
 */
export const TROUBLE_HCL = `${WORKER}
mission "trouble" {
  ${COMMANDER}
  task "spend" {
    objective = "Spend"
    budget {
      tokens = 100
    }
  }
  task "after_spend" {
    objective  = "After spending"
    depends_on = [tasks.spend]
  }
  task "mute" {
    objective = "Say nothing useful"
  }
  task "tooling" {
    objective = "Look Oslo up"
    agents    = [agents.fetcher]
  }
}
`;

/** The script of `trouble`. */
export function troubleTurns(): ScriptTurn[] {
  const agent = 'agent:tooling/fetcher';
  return [
    {
      match: { actor: 'commander:spend' },
      toolCalls: [{ name: 'set_subtasks', arguments: { subtasks: ['Spend'] } }],
      usage: { input: 150, output: 10 },
    },
    reply('commander:mute', 'thinking'),
    reply('commander:mute', 'still thinking'),
    reply('commander:mute', 'done?'),
    call('commander:tooling', 'set_subtasks', { subtasks: ['Look up'] }),
    call('commander:tooling', 'call_agent', { name: 'fetcher', task: 'Look Oslo up' }),
    call(agent, 'tools_lookup', { city: 'Oslo' }),
    reply(agent, 'The lookup tool failed.', { lastMessageContains: 'could not build the request' }),
    call('commander:tooling', 'complete_subtask'),
    call('commander:tooling', 'task_complete', { summary: 'Lookup failed, reported' }),
  ];
}

/** A smoketest whose item 0 fails after its retry, beside a slow sibling and a dependent. */
export const SMOKE_HCL = `
mission "smoke" {
  ${COMMANDER}
  ${THINGS}
  task "probe" {
    objective = "Probe \${item.name}"
    iterator {
      dataset           = datasets.things
      parallel          = true
      concurrency_limit = 3
      smoketest         = true
      max_retries       = 1
    }
  }
  task "slow" {
    objective = "Take long"
  }
  task "after" {
    objective  = "After"
    depends_on = [tasks.probe]
  }
}
`;

/** The script of `smoke`: item 0 gives up twice; `slow`'s first answer would take 30 s. */
export function smokeTurns(): ScriptTurn[] {
  const giveUp = call('commander:probe[0]', 'task_complete', { succeed: false, reason: 'no data' });
  return [
    giveUp,
    giveUp,
    { ...call('commander:slow', 'set_subtasks', { subtasks: ['Wait'] }), delayMs: 30_000 },
  ];
}

/** One task whose first model answer would take 30 s: Ctrl-C arrives while it is in flight. */
export const STALL_HCL = `
mission "stall" {
  ${COMMANDER}
  task "wait" {
    objective = "Wait"
  }
  task "after" {
    objective  = "After"
    depends_on = [tasks.wait]
  }
}
`;

/** The script of `stall`. */
export function stallTurns(): ScriptTurn[] {
  return [{ ...call('commander:wait', 'set_subtasks', { subtasks: ['Wait'] }), delayMs: 30_000 }];
}
