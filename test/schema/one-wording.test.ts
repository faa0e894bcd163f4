/**
 * One invalid value, every path that validates: tool arguments, a task output, mission
 * inputs (the CLI's --input, a commander's mission_inputs, a mission started by the library
 * or by a route) and dataset items (bound to an input, written by set_dataset, inline in the
 * configuration). Each reads the same problem lines, in the same order.
 */
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/base/errors.ts';
import { parseInputFlags } from '../../src/cli/input-flags.ts';
import { checkedInputs } from '../../src/actors/mission/run-checks.ts';
import { datasetDeclarations } from '../../src/actors/mission/mission-datasets.ts';
import { DatasetStore } from '../../src/tools/datasets/index.ts';
import { defineTool, parseToolArguments } from '../../src/tools/define-tool.ts';
import type { MissionConfig } from '../../src/config/config-types.ts';
import { decodeText, PRELUDE, rows } from '../config/helpers.ts';
import {
  call,
  plainTask,
  reply,
  resultsAfterTurn,
  runCommander,
} from '../machines/commander-harness.ts';

const FIELDS = `{
      tags   = list(string, "Tags", true)
      limits = map(number, "Limits")
      point  = object({ x = integer("X", true) }, "Point")
    }`;

const PROJECT = `${PRELUDE}
mission "m" {
  commander {
    model = models.openai.gpt_4o_mini
  }
  inputs = {
    tags   = list(string, "Tags", true)
    limits = map(number, "Limits")
    point  = object({ x = integer("X", true) }, "Point")
    rows   = list(object(${FIELDS}), "Rows")
    brief  = file("Brief")
    scan   = file("Scan")
  }
  dataset "rows" {
    bind_to = inputs.rows
  }
  task "t" {
    objective = "Do it"
  }
}
`;

/** The invalid value every path is given (as JSON, as flags, as HCL). */
const VALUE = { tags: [1], limits: { a: 'x' }, point: { y: 1.5 } };

/** The one wording: what every path reports for VALUE. */
const PROBLEMS = [
  '/tags/0: must be string',
  '/limits/a: must be number',
  "/point: must have required property 'x'",
  "/point: must NOT have additional property 'y'",
];

function mission(): MissionConfig {
  const { config, diagnostics } = decodeText(PROJECT);
  expect(rows(diagnostics)).toEqual([]);
  return config.missions.get('m')!;
}

function usageMessage(attempt: () => unknown): string {
  try {
    attempt();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('expected a UsageError');
}

/** A path that takes any JSON value, and the exact text it gives for `value`. */
type Path = [string, (value: unknown) => Promise<unknown>, (problems: string[]) => unknown];

/** The paths that validate any JSON value against the mission's input schema. */
const JSON_PATHS: Path[] = [
  [
    'tool arguments',
    async (value) => {
      const tool = defineTool({ name: 't', description: 'T', parameters: inputSchema() });
      return parseToolArguments(tool, JSON.stringify(value));
    },
    (problems) => ({ ok: false, problems }),
  ],
  [
    'a task output (submit_output)',
    async (value) => {
      const run = await runCommander(
        [
          reply(
            call('set_subtasks', { subtasks: ['A'] }),
            call('submit_output', { output: value }),
          ),
        ],
        { task: { ...plainTask, outputSchema: inputSchema() } },
      );
      return resultsAfterTurn(run.result.messages, 1)[1];
    },
    (problems) => ({ status: 'error', error: 'output does not match the schema', problems }),
  ],
  [
    "a commander's mission_inputs (task_complete)",
    async (value) => {
      const run = await runCommander(
        [
          reply(
            call('set_subtasks', { subtasks: ['A'] }),
            call('complete_subtask'),
            call('task_complete', { summary: 'done', route: 'next', mission_inputs: value }),
          ),
        ],
        {
          task: {
            ...plainTask,
            routes: [{ key: 'next', kind: 'mission', inputSchema: inputSchema() }],
          },
        },
      );
      return resultsAfterTurn(run.result.messages, 1)[2];
    },
    (problems) => ({
      status: 'error',
      error: 'mission_inputs do not match the inputs of mission "next"',
      problems,
    }),
  ],
  [
    'a mission started by the library or a route',
    async (value) => usageMessage(() => checkedInputs(mission(), value as Record<string, unknown>)),
    (problems) => `inputs of mission "m" are invalid: ${problems.join('; ')}`,
  ],
  [
    'dataset items written by set_dataset',
    async (value) => {
      const store = new DatasetStore([{ name: 'rows', schema: inputSchema() }]);
      return store.write('rows', [value], false);
    },
    (problems) => ({
      ok: false,
      error: '1 item does not match the schema of dataset "rows"; nothing was changed',
      problems: problems.map((line) => `item 0: ${line}`),
    }),
  ],
];

/** Paths whose values come from flags or HCL, given VALUE in their own syntax. */
const OWN_SYNTAX_PATHS: Array<[string, () => Promise<unknown>, unknown]> = [
  [
    'CLI --input flags',
    async () =>
      usageMessage(() =>
        parseInputFlags(['tags=[1]', 'limits={"a":"x"}', 'point={"y":1.5}'], mission().inputs, 'm'),
      ),
    `invalid inputs for mission "m":\n${PROBLEMS.map((line) => `  input ${line}`).join('\n')}`,
  ],
  [
    'dataset items bound to an input',
    async () =>
      usageMessage(() =>
        datasetDeclarations(mission(), { tags: ['a'], rows: [{ tags: [] }, VALUE] }),
      ),
    `dataset "rows" does not accept its bound input: ${PROBLEMS.map((line) => `item 1: ${line}`).join('; ')}`,
  ],
  [
    'inline dataset items in the configuration',
    async () => {
      const project = `${PRELUDE}
mission "m" {
  commander {
    model = models.openai.gpt_4o_mini
  }
  dataset "rows" {
    schema = ${FIELDS}
    items  = [{ tags = [1], limits = { a = "x" }, point = { y = 1.5 } }]
  }
  task "t" {
    objective = "Do it"
  }
}
`;
      return rows(decodeText(project).diagnostics).map((row) => row.replace(/^error \S+ /, ''));
    },
    PROBLEMS.map((line) => `item 0: ${line}`),
  ],
];

/**
 * A value whose problems ajv words badly (a file input's shape, a string bound): tool
 * arguments and outputs used to read `must NOT have fewer than 1 characters` and a list of
 * oneOf failures where inputs read the lines below.
 */
const FILE_VALUE = { tags: ['a', 'a'], brief: { path: '' }, scan: 'scan.png' };
const FILE_PROBLEMS = [
  '/brief/path: must have at least 1 character',
  '/scan: must be a file: { path } or { base64, filename }',
];

function inputSchema(): Record<string, unknown> {
  return mission().inputs!.jsonSchema;
}

describe('one wording for every validation path', () => {
  it.each(JSON_PATHS)('%s', async (_path, attempt, expected) => {
    expect(await attempt(VALUE)).toEqual(expected(PROBLEMS));
    expect(await attempt(FILE_VALUE)).toEqual(expected(FILE_PROBLEMS));
  });

  it.each(OWN_SYNTAX_PATHS)('%s', async (_path, attempt, expected) => {
    expect(await attempt()).toEqual(expected);
  });
});
