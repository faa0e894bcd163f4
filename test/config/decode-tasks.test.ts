import { describe, expect, it } from 'vitest';
import { decodeText, diagnose, PRELUDE } from './helpers.ts';

/** A mission around task-level HCL; `inner` starts on line 20. */
function mission(inner: string, extra = ''): string {
  return `${PRELUDE}
mission "m" {
  commander {
    model = models.openai.gpt_4o
  }
  agents = [agents.writer]
${inner}
}
${extra}`;
}

const task = (name: string, body = '') =>
  `  task "${name}" {\n    objective = "do ${name}"\n${body}  }\n`;

describe('task references', () => {
  it('reports unknown tasks with a suggestion, and accepts the literal string form', () => {
    expect(
      diagnose(
        mission(task('gather') + task('analyze', '    depends_on = [tasks.gater, "gather"]\n')),
      ),
    ).toMatchInlineSnapshot(`
      [
        "error 25:19 unknown task "gater" in depends_on (did you mean "gather"?)",
      ]
    `);
  });

  it('reports a self-dependency', () => {
    expect(diagnose(mission(task('a', '    depends_on = [tasks.a]\n')))).toMatchInlineSnapshot(`
      [
        "error 22:19 task "a" depends on itself",
      ]
    `);
  });

  it('prints the path of a dependency cycle over depends_on, routes and send_to', () => {
    expect(
      diagnose(
        mission(
          task('start') +
            task('a', '    depends_on = [tasks.start, tasks.c]\n') +
            task('b', '    depends_on = [tasks.a]\n') +
            task('c', '    depends_on = [tasks.b]\n'),
        ),
      ),
    ).toMatchInlineSnapshot(`
      [
        "error 23:8 dependency cycle: a → b → c → a",
      ]
    `);
    expect(
      diagnose(
        mission(
          task('s', '    send_to = [tasks.b]\n') +
            task('b', '    send_to = [tasks.c]\n') +
            task(
              'c',
              '    router {\n      route {\n        target = tasks.b\n        condition = "again"\n      }\n    }\n',
            ),
        ),
      ),
    ).toMatchInlineSnapshot(`
      [
        "error 24:8 dependency cycle: b → c → b",
      ]
    `);
  });

  it('refuses router with send_to, an empty router, routes missing target or condition, duplicate targets', () => {
    expect(
      diagnose(
        mission(
          task(
            'a',
            '    send_to = [tasks.b, tasks.b]\n    router {\n      route {\n        target = tasks.b\n        condition = "x"\n      }\n    }\n',
          ) +
            task('b', '    router {\n    }\n') +
            task(
              'c',
              '    router {\n      route {\n        condition = "x"\n      }\n      route {\n        target = tasks.d\n      }\n      route {\n        target = tasks.d\n        condition = "y"\n      }\n      route {\n        target = "d"\n        condition = "z"\n      }\n    }\n',
            ) +
            task('d'),
        ),
      ),
    ).toMatchInlineSnapshot(`
      [
        "error 22:5 a task cannot have both router and send_to",
        "error 22:25 duplicate task "b" in send_to",
        "error 32:5 router needs at least one route { target, condition }",
        "error 38:7 missing required attribute "target"",
        "error 41:7 missing required attribute "condition"",
        "error 49:18 duplicate route target "d"",
      ]
    `);
  });

  it('refuses depends_on on a dynamically activated task and depending on one', () => {
    expect(
      diagnose(
        mission(
          task('a', '    send_to = [tasks.b]\n') +
            task('b', '    depends_on = [tasks.a]\n') +
            task('c', '    depends_on = [tasks.b]\n'),
        ),
      ),
    ).toMatchInlineSnapshot(`
      [
        "error 26:5 task "b" is activated by a route or send_to and cannot have depends_on",
        "error 30:19 task "c" cannot depend on "b": it only runs when a route or send_to activates it",
      ]
    `);
  });

  it('reports a mission in which no task can start, and a mission without tasks', () => {
    expect(
      diagnose(
        mission(task('a', '    send_to = [tasks.b]\n') + task('b', '    send_to = [tasks.a]\n')),
      ),
    ).toMatchInlineSnapshot(`
      [
        "error 15:1 no task can start: every task depends on another task or is only activated by a route or send_to",
        "error 20:8 dependency cycle: a → b → a",
      ]
    `);
    expect(diagnose(mission(''))).toMatchInlineSnapshot(`
      [
        "error 15:1 mission "m" has no tasks: add at least one task block",
      ]
    `);
  });

  it('warns about a depends_on entry already implied through another', () => {
    expect(
      diagnose(
        mission(
          task('fetch') +
            task('analyze', '    depends_on = [tasks.fetch]\n') +
            task('report', '    depends_on = [tasks.fetch, tasks.analyze]\n'),
        ),
      ),
    ).toMatchInlineSnapshot(`
      [
        "warning 29:19 depends_on "fetch" is already implied through "analyze"",
      ]
    `);
  });

  it('routes to tasks and missions, marking dynamic tasks', () => {
    const { config, diagnostics } = decodeText(
      mission(
        task(
          'decide',
          '    router {\n      route {\n        target = tasks.order\n        condition = "ok"\n      }\n      route {\n        target = missions.escalate\n        condition = "not ok"\n      }\n    }\n',
        ) + task('order'),
        `mission "escalate" {\n  commander {\n    model = models.openai.gpt_4o\n  }\n  task "notify" {\n    objective = "tell"\n  }\n}\n`,
      ),
    );
    expect(diagnostics).toEqual([]);
    const tasks = config.missions.get('m')?.tasks;
    expect(tasks?.get('decide')?.routes).toEqual([
      { key: 'order', target: { kind: 'task', name: 'order' }, condition: 'ok' },
      { key: 'escalate', target: { kind: 'mission', name: 'escalate' }, condition: 'not ok' },
    ]);
    expect([...(tasks?.values() ?? [])].map((t) => [t.name, t.dynamic])).toEqual([
      ['decide', false],
      ['order', true],
    ]);
  });

  it('warns about a route to a mission whose required inputs a commander cannot supply', () => {
    expect(
      diagnose(
        mission(
          task(
            'a',
            '    router {\n      route {\n        target = missions.other\n        condition = "x"\n      }\n    }\n',
          ),
          `mission "other" {\n  commander {\n    model = models.openai.gpt_4o\n  }\n  inputs = {\n    contract = file("The contract", true)\n    token = string("Token", { protected = true, required = true })\n    reason = string("Why", true)\n  }\n  task "t" {\n    objective = "x \${inputs.reason}"\n  }\n}\n`,
        ),
      ),
    ).toMatchInlineSnapshot(`
      [
        "warning 24:18 route to mission "other": its required file input "contract" cannot be supplied by a commander in mission_inputs",
        "warning 24:18 route to mission "other": its required protected input "token" cannot be supplied by a commander in mission_inputs",
      ]
    `);
  });
});

describe('iterators', () => {
  const datasets = `  dataset "cities" {\n    schema = {\n      name = string("City", true)\n    }\n    items = [{ name = "Oslo" }]\n  }\n`; // lines 20-25

  it('applies the iterator defaults', () => {
    const { config, diagnostics } = decodeText(
      mission(datasets + task('t', '    iterator {\n      dataset = datasets.cities\n    }\n')),
    );
    expect(diagnostics).toEqual([]);
    expect(config.missions.get('m')?.tasks.get('t')?.iterator).toEqual({
      dataset: 'cities',
      parallel: false,
      concurrencyLimit: 5,
      startDelay: 0,
      smoketest: false,
      maxRetries: 0,
    });
  });

  it('refuses parallel-only settings without parallel, negative retries, routers on parallel tasks, unknown datasets', () => {
    expect(
      diagnose(
        mission(
          datasets +
            task(
              'a',
              '    iterator {\n      dataset = datasets.cities\n      concurrency_limit = 2\n      start_delay = 10\n      smoketest = true\n      max_retries = -1\n    }\n',
            ) +
            task('b', '    iterator {\n      dataset = datasets.cites\n    }\n') +
            task(
              'c',
              '    iterator {\n      dataset  = datasets.cities\n      parallel = true\n    }\n    router {\n      route {\n        target = tasks.d\n        condition = "x"\n      }\n    }\n',
            ) +
            task('d'),
        ),
      ),
    ).toMatchInlineSnapshot(`
      [
        "error 30:7 concurrency_limit needs parallel = true",
        "error 31:7 start_delay needs parallel = true",
        "error 32:7 smoketest needs parallel = true",
        "error 33:21 max_retries must be 0 or more",
        "error 39:17 unknown dataset "cites" in iterator (did you mean "cities"?)",
        "error 48:5 a parallel iterated task cannot have a router",
      ]
    `);
  });
});

describe('budgets', () => {
  it('needs at least one limit, each greater than 0', () => {
    expect(
      diagnose(
        mission(
          `  budget {\n  }\n` +
            task('a', '    budget {\n      tokens = 0\n      dollars = -1\n    }\n'),
        ),
      ),
    ).toMatchInlineSnapshot(`
      [
        "error 20:3 budget needs at least one limit: tokens or dollars",
        "error 25:16 tokens must be greater than 0",
        "error 26:17 dollars must be greater than 0",
      ]
    `);
    const { config } = decodeText(
      mission(
        `  budget {\n    dollars = 2.5\n  }\n` +
          task('a', '    budget {\n      tokens = 1000\n    }\n'),
      ),
    );
    expect(config.missions.get('m')?.budget).toEqual({ dollars: 2.5 });
    expect(config.missions.get('m')?.tasks.get('a')?.budget).toEqual({ tokens: 1000 });
  });
});
