/**
 * Unknown attributes and blocks, as the reference runtime treats them: in the blocks it decodes
 * leniently (model, tool, mcp, agent, mission, commander, input, dataset, task, iterator,
 * router, route, budget, the file itself) one with no close known name is ignored with a
 * warning and never evaluated; a close name is a typo and stays an error with a suggestion;
 * the blocks it decodes strictly (variable, skill, packet, memory, pricing, the context limits,
 * field) refuse anything unknown.
 */
import { describe, expect, it } from 'vitest';
import { decodeText, PRELUDE } from './helpers.ts';

/** PRELUDE and a mission "m" with `inner` in its body (its first line is line 18). */
function mission(inner: string): string {
  return `${PRELUDE}mission "m" {\n  commander {\n    model = models.openai.gpt_4o\n  }\n${inner}\n  agents = [agents.writer]\n  task "t" {\n    objective = "x"\n  }\n}\n`;
}

/** PRELUDE and a task "u" with `inner` in its body (its first line is line 23). */
function task(inner: string): string {
  return mission(
    `  dataset "d" {\n    items = [1]\n  }\n  task "u" {\n    objective = "y"\n${inner}\n  }`,
  );
}

/** Each diagnostic as "severity line:col message", its block path and its hint. */
function described(text: string): Array<[string, string, string | undefined]> {
  return decodeText(text).diagnostics.map((diagnostic) => [
    `${diagnostic.severity} ${diagnostic.line}:${diagnostic.column} ${diagnostic.message}`,
    diagnostic.path.join(' › '),
    diagnostic.hint,
  ]);
}

const MISSION_HINT =
  'missions use directive, agents, inputs, memories, packets, scratchpad, commander, max_parallel and the blocks commander, agent, inputs, input, dataset, task, memory, budget, schedule, trigger';
const TASK_HINT =
  'tasks use objective, agents, depends_on, send_to, output, packets and the blocks router, output, iterator, budget';

describe('unknown attributes in the blocks the reference runtime decodes leniently', () => {
  it.each<[string, string, Array<[string, string, string | undefined]>]>([
    [
      'a top-level attribute',
      `${PRELUDE}team = vars.nowhere\n`,
      [
        [
          'warning 14:1 unknown attribute "team" is ignored by sortie',
          '',
          'project files use the blocks variable, model, mcp, mcp_host, tool, skill, agent, memory, packet, mission',
        ],
      ],
    ],
    [
      'a model attribute (never evaluated: its undefined variable is no error)',
      `${PRELUDE}model "second" {\n  provider = "openai"\n  api_key  = vars.openai_api_key\n  region   = vars.nowhere\n}\n`,
      [
        [
          'warning 17:3 unknown attribute "region" is ignored by sortie',
          'model "second"',
          'models use provider, api_key, base_url, aliases, prompt_caching and the blocks pricing',
        ],
      ],
    ],
    [
      'a tool attribute',
      `${PRELUDE}tool "t" {\n  implements   = builtins.http.post\n  url          = "https://example.com"\n  max_retries  = 3\n}\n`,
      [
        [
          'warning 17:3 unknown attribute "max_retries" is ignored by sortie',
          'tool "t"',
          'tools use implements, description, inputs, url, headers, query, body, content_type, timeout_seconds and the blocks inputs',
        ],
      ],
    ],
    [
      'an mcp attribute',
      `${PRELUDE}mcp "files" {\n  command = "files-server"\n  timeout = 30\n}\n`,
      [
        [
          'warning 16:3 unknown attribute "timeout" is ignored by sortie',
          'mcp "files"',
          'mcp servers use command, url, source, version, entry, args, env, headers, client_id, client_secret, client_metadata_url, sampling',
        ],
      ],
    ],
    [
      'a mission attribute and block',
      mission('  owner = "me"\n  notes {\n    text = "x"\n  }'),
      [
        [
          'warning 18:3 unknown attribute "owner" is ignored by sortie',
          'mission "m"',
          MISSION_HINT,
        ],
        ['warning 19:3 unknown block "notes" is ignored by sortie', 'mission "m"', MISSION_HINT],
      ],
    ],
    [
      'a commander attribute',
      `${PRELUDE}mission "m" {\n  commander {\n    model       = models.openai.gpt_4o\n    temperature = 0.2\n  }\n  agents = [agents.writer]\n  task "t" {\n    objective = "x"\n  }\n}\n`,
      [
        [
          'warning 17:5 unknown attribute "temperature" is ignored by sortie',
          'mission "m" › commander',
          'commanders use model, reasoning, stall_turns and the blocks tool_response, pruning, compaction',
        ],
      ],
    ],
    [
      'an input attribute',
      mission('  input "region" {\n    type  = "string"\n    label = "Region"\n  }'),
      [
        [
          'warning 20:5 unknown attribute "label" in input "region" is ignored by sortie',
          'mission "m"',
          'inputs use type, description, required, default, items, protected and value',
        ],
      ],
    ],
    [
      'a dataset attribute',
      mission('  dataset "d" {\n    items = [1]\n    source = "s3://bucket"\n  }'),
      [
        [
          'warning 20:5 unknown attribute "source" is ignored by sortie',
          'mission "m" › dataset "d"',
          'datasets use description, schema, items, bind_to and the blocks schema',
        ],
      ],
    ],
    [
      'a task attribute',
      task('    priority = 1'),
      [
        [
          'warning 23:5 unknown attribute "priority" is ignored by sortie',
          'mission "m" › task "u"',
          TASK_HINT,
        ],
      ],
    ],
    [
      'an iterator attribute',
      task('    iterator {\n      dataset = datasets.d\n      order   = "random"\n    }'),
      [
        [
          'warning 25:7 unknown attribute "order" is ignored by sortie',
          'mission "m" › task "u" › iterator',
          'iterators use dataset, parallel, concurrency_limit, start_delay, smoketest, max_retries',
        ],
      ],
    ],
    [
      'a router block and a route attribute',
      task(
        '    router {\n      fallback {}\n      route {\n        target    = tasks.t\n        condition = "always"\n        weight    = 2\n      }\n    }',
      ),
      [
        [
          'warning 24:7 unknown block "fallback" is ignored by sortie',
          'mission "m" › task "u" › router',
          'routers use the blocks route',
        ],
        [
          'warning 28:9 unknown attribute "weight" is ignored by sortie',
          'mission "m" › task "u" › router › route',
          'routes use target, condition',
        ],
      ],
    ],
    [
      'a budget attribute',
      task('    budget {\n      tokens   = 1000\n      currency = "usd"\n    }'),
      [
        [
          'warning 25:7 unknown attribute "currency" is ignored by sortie',
          'mission "m" › task "u" › budget',
          'budgets use tokens, dollars',
        ],
      ],
    ],
  ])('warns about %s and ignores it', (_name, text, expected) => {
    expect(described(text)).toEqual(expected);
  });

  it.each<[string, string, string]>([
    [
      'a model',
      `${PRELUDE}model "second" {\n  provider = "openai"\n  api_key  = vars.openai_api_key\n  base_ulr = "x"\n}\n`,
      'error 17:3 unknown attribute "base_ulr" (did you mean "base_url"?)',
    ],
    [
      'a mission',
      mission('  directve = "x"'),
      'error 18:3 unknown attribute "directve" (did you mean "directive"?)',
    ],
    [
      'a task',
      task('    depend_on = [tasks.t]'),
      'error 23:5 unknown attribute "depend_on" (did you mean "depends_on"?)',
    ],
    [
      'a task block',
      task('    itrator {\n      dataset = datasets.d\n    }'),
      'error 23:5 unknown block "itrator" (did you mean "iterator"?)',
    ],
    [
      'an input',
      mission('  input "region" {\n    type    = "string"\n    defautl = "eu"\n  }'),
      'error 20:5 unknown attribute "defautl" in input "region" (did you mean "default"?)',
    ],
    [
      'an input attribute that would leave a secret in view',
      mission('  input "token" {\n    type   = "string"\n    secret = true\n  }'),
      'error 20:5 unknown attribute "secret" in input "token": use protected = true to keep its value secret',
    ],
  ])('keeps a typo in %s an error with a suggestion', (_name, text, expected) => {
    expect(described(text).map(([row]) => row)).toEqual([expected]);
  });
});

describe('unknown attributes in the blocks the reference runtime decodes strictly', () => {
  it.each<[string, string, string]>([
    [
      'a variable',
      `${PRELUDE}variable "region" {\n  default = "eu"\n  label   = "Region"\n}\n`,
      'error 16:3 unknown attribute "label"',
    ],
    [
      'a skill',
      `${PRELUDE}skill "s" {\n  description  = "d"\n  instructions = "i"\n  version      = 2\n}\n`,
      'error 17:3 unknown attribute "version"',
    ],
    [
      'a memory',
      `${PRELUDE}memory "notes" {\n  description = "d"\n  size        = 10\n}\n`,
      'error 16:3 unknown attribute "size"',
    ],
    [
      'a pruning block',
      `${PRELUDE}agent "a" {\n  model       = models.openai.gpt_4o\n  personality = "p"\n  pruning {\n    prune_on = 4\n    prune_to = 2\n    every    = 1\n  }\n}\n`,
      'error 20:5 unknown attribute "every"',
    ],
    [
      'a tool_response block',
      `${PRELUDE}agent "a" {\n  model       = models.openai.gpt_4o\n  personality = "p"\n  tool_response {\n    max_tokens = 100\n    format     = "json"\n  }\n}\n`,
      'error 19:5 unknown attribute "format"',
    ],
  ])('refuses an unknown attribute in %s', (_name, text, expected) => {
    expect(described(text).map(([row]) => row)).toEqual([expected]);
  });
});
