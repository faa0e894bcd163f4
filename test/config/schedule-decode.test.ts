import { describe, expect, it } from 'vitest';
import { secretValues } from '../../src/config/requirements.ts';
import { decodeText, diagnose, PRELUDE } from './helpers.ts';

const INPUTS = `  inputs = {\n    report = string("Which report", true)\n    count  = number("How many", { default = 1 })\n    loud   = bool("Shout")\n  }\n`;

/** A mission "m" after PRELUDE (line 14); `inner` starts on line 18. */
function mission(inner: string, name = 'm', inputs = ''): string {
  return `mission "${name}" {\n  commander {\n    model = models.openai.gpt_4o\n  }\n${inner}\n  agents = [agents.writer]\n${inputs}  task "t" {\n    objective = "x"\n  }\n}\n`;
}

function project(inner: string, inputs = ''): string {
  return `${PRELUDE}${mission(inner, 'm', inputs)}`;
}

describe('schedule blocks', () => {
  it('decodes at, every and cron schedules with weekdays, a time zone and inputs', () => {
    const { config, diagnostics } = decodeText(
      project(
        [
          '  schedule {',
          '    at       = ["17:30", "09:00", "17:30"]',
          '    weekdays = ["fri", "Mon"]',
          '    timezone = "America/Chicago"',
          '    inputs   = { report = "daily", count = "3", loud = true }',
          '  }',
          '  schedule {',
          '    every  = "2h"',
          '    inputs = { report = "hourly" }',
          '  }',
          '  schedule {',
          '    cron   = "0  0 * * 0"',
          '    inputs = { report = "weekly", count = 7 }',
          '  }',
        ].join('\n'),
        INPUTS,
      ),
    );
    expect(diagnostics).toEqual([]);
    const schedules = config.missions.get('m')?.schedules;
    expect(schedules?.map(({ span, ...rest }) => ({ ...rest, line: span.start.line }))).toEqual([
      {
        at: [
          { hour: 9, minute: 0 },
          { hour: 17, minute: 30 },
        ],
        weekdays: [1, 5],
        timezone: 'America/Chicago',
        inputs: { report: 'daily', count: 3, loud: true },
        line: 18,
      },
      { every: '2h', inputs: { report: 'hourly' }, line: 24 },
      { cron: '0 0 * * 0', inputs: { report: 'weekly', count: 7 }, line: 28 },
    ]);
  });

  it('is empty, with max_parallel 3 and no trigger, when the mission has none', () => {
    const mission = decodeText(project('')).config.missions.get('m');
    expect(mission?.schedules).toEqual([]);
    expect(mission?.maxParallel).toBe(3);
    expect(mission?.trigger).toBeUndefined();
  });

  it.each([
    ['no mode', '  schedule {\n  }', ['error 18:3 exactly one of at, every or cron must be set']],
    [
      'two modes',
      '  schedule {\n    at    = ["09:00"]\n    every = "1h"\n  }',
      ['error 20:5 exactly one of at, every or cron must be set'],
    ],
    [
      'an empty at',
      '  schedule {\n    at = []\n  }',
      ['error 19:10 at needs at least one time, such as ["09:00"]'],
    ],
    [
      'a bad at time',
      '  schedule {\n    at = ["09:00", "9:00", "24:00"]\n  }',
      [
        'error 19:20 invalid at time "9:00": use HH:MM on a 24-hour clock, such as "09:00" or "17:30"',
        'error 19:28 invalid at time "24:00": use HH:MM on a 24-hour clock, such as "09:00" or "17:30"',
      ],
    ],
    [
      'at as one string',
      '  schedule {\n    at = "09:00"\n  }',
      ['error 19:10 at must be a list: [ ... ]'],
    ],
    [
      'an every that does not divide an hour',
      '  schedule {\n    every = "7m"\n  }',
      [
        'error 19:13 every "7m" must divide an hour evenly: 1m, 2m, 3m, 4m, 5m, 6m, 10m, 12m, 15m, 20m, 30m',
      ],
    ],
    [
      'an every that does not divide a day',
      '  schedule {\n    every = "5h"\n  }',
      ['error 19:13 every "5h" must divide a day evenly: 1h, 2h, 3h, 4h, 6h, 8h, 12h'],
    ],
    [
      'an every of hours and minutes',
      '  schedule {\n    every = "1h30m"\n  }',
      ['error 19:13 every "1h30m" must be a whole number of hours when it is 1h or more'],
    ],
    [
      'an every below a minute',
      '  schedule {\n    every = "30s"\n  }',
      ['error 19:13 every must be at least 1m, got "30s"'],
    ],
    [
      'an every that is no duration',
      '  schedule {\n    every = "hourly"\n  }',
      ['error 19:13 invalid every interval "hourly": use a duration such as "15m" or "2h"'],
    ],
    [
      'a cron of six fields',
      '  schedule {\n    cron = "0 0 9 * * *"\n  }',
      [
        'error 19:12 invalid cron pattern "0 0 9 * * *": it needs 5 fields (minute hour day-of-month month day-of-week), got 6',
      ],
    ],
    [
      'a cron with a bad minute',
      '  schedule {\n    cron = "61 * * * *"\n  }',
      ['error 19:12 invalid cron pattern "61 * * * *": Invalid value for minute: 61'],
    ],
    [
      'a cron that never fires',
      '  schedule {\n    cron = "0 0 31 2 *"\n  }',
      ['error 19:12 cron pattern "0 0 31 2 *" never fires: no date matches it'],
    ],
    [
      'weekdays with cron',
      '  schedule {\n    cron     = "0 9 * * *"\n    weekdays = ["mon"]\n  }',
      ['error 20:5 weekdays cannot be used with cron'],
    ],
    [
      'a bad weekday',
      '  schedule {\n    every    = "1h"\n    weekdays = ["monday"]\n  }',
      ['error 20:17 invalid weekday "monday": use mon, tue, wed, thu, fri, sat or sun'],
    ],
    [
      'an unknown time zone',
      '  schedule {\n    every    = "1h"\n    timezone = "Mars/Olympus"\n  }',
      [
        'error 20:16 invalid timezone "Mars/Olympus": use an IANA time zone name such as "America/Chicago" or "UTC"',
      ],
    ],
  ])('reports %s at its position', (_name, inner, expected) => {
    expect(diagnose(project(inner))).toEqual(expected);
  });

  it('checks its inputs against the mission inputs as --input flags are checked', () => {
    const schedule = (inputs: string) =>
      project(`  schedule {\n    every  = "1h"\n    inputs = ${inputs}\n  }`, INPUTS);
    expect(diagnose(schedule('{ report = "r", cuont = 2 }'))).toEqual([
      'error 20:30 mission "m" has no input "cuont" (did you mean "count"?)',
    ]);
    expect(diagnose(schedule('{ report = "r", count = "many" }'))).toEqual([
      'error 20:38 input "count": expected a number',
    ]);
    expect(diagnose(schedule('{ count = 2 }'))).toEqual([
      'error 20:5 schedule does not give required input "report" of mission "m"',
    ]);
    expect(diagnose(project('  schedule {\n    every = "1h"\n  }', INPUTS))).toEqual([
      'error 18:3 schedule does not give required input "report" of mission "m"',
    ]);
    expect(diagnose(schedule('{ report = ["a"] }'))).toEqual([
      'error 20:5 schedule input /report: must be string',
    ]);
  });
});

describe('trigger blocks', () => {
  it('defaults the webhook path to the mission name and normalises a written one', () => {
    const { config, diagnostics } = decodeText(
      `${PRELUDE}${mission('  trigger {\n  }', 'alpha')}${mission('  trigger {\n    webhook_path = "hooks//ingest/"\n  }', 'beta')}`,
    );
    expect(diagnostics).toEqual([]);
    expect(config.missions.get('alpha')?.trigger).toEqual({
      webhookPath: '/alpha',
      span: expect.objectContaining({ start: expect.objectContaining({ line: 18, column: 3 }) }),
    });
    expect(config.missions.get('beta')?.trigger?.webhookPath).toBe('/hooks/ingest');
  });

  it('reads its secret from a variable and lists it among the values never printed', () => {
    const text = `variable "hook_secret" {\n  secret = true\n}\n${PRELUDE}${mission('  trigger {\n    secret = vars.hook_secret\n  }')}`;
    const { config, diagnostics } = decodeText(text, { vars: { hook_secret: 's3cr3t-value' } });
    expect(diagnostics).toEqual([]);
    expect(config.missions.get('m')?.trigger?.secret).toBe('s3cr3t-value');
    expect(secretValues(config)).toContain('s3cr3t-value');
    const literal = decodeText(
      `${PRELUDE}${mission('  trigger {\n    secret = "plain-text-secret"\n  }')}`,
    );
    expect(secretValues(literal.config)).toContain('plain-text-secret');
  });

  it('leaves an unset secret variable to the server, so run and verify still load the project', () => {
    const text = `variable "hook_secret" {\n  secret = true\n}\n${PRELUDE}${mission('  trigger {\n    secret = vars.hook_secret\n  }')}`;
    const { config, diagnostics } = decodeText(text);
    expect(diagnostics).toEqual([]);
    expect(config.missions.get('m')?.trigger).toMatchObject({ unsetSecretVariable: 'hook_secret' });
    expect(config.missions.get('m')?.trigger?.secret).toBeUndefined();
  });

  it('reports a second trigger, a bad path and a path two missions share', () => {
    expect(diagnose(project('  trigger {\n  }\n  trigger {\n  }'))).toEqual([
      'error 20:3 duplicate `trigger` block: only one is allowed here',
    ]);
    expect(diagnose(project('  trigger {\n    webhook_path = "/a/../b"\n  }'))).toEqual([
      'error 19:20 invalid webhook_path "/a/../b": use a path such as "/ingest" made of letters, digits, -, _, . and ~ between slashes',
    ]);
    expect(
      diagnose(
        `${PRELUDE}${mission('  trigger {\n    webhook_path = "shared"\n  }', 'a')}${mission('  trigger {\n    webhook_path = "/shared"\n  }', 'b')}`,
      ),
    ).toEqual(['error 30:3 webhook_path "/shared" conflicts with mission "a"']);
  });
});
