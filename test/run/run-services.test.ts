import { mkdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { createRunServices } from '../../src/run/run-services.ts';
import { createRunRedactor, runSecretValues } from '../../src/run/run-redactor.ts';
import { loadProject } from '../../src/config/load-project.ts';
import type { Config } from '../../src/config/config-types.ts';
import { UsageError } from '../../src/base/errors.ts';
import { EventBus } from '../../src/runtime/event-bus.ts';
import type { MissionEvent } from '../../src/base/events.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';

const PROJECT = `
variable "api_token" {
  secret = true
}

variable "gemini_key" {}

model "openai" {
  provider = "openai"
  api_key  = "sk-literal-key-0001"
}

model "gemini" {
  provider = "gemini"
  api_key  = vars.gemini_key
}

memory "notes" {
  description = "Shared notes"
}

agent "researcher" {
  model       = models.openai.gpt_4o
  personality = "You research."
}

mission "m" {
  commander {
    model = models.openai.gpt_4o
  }
  agents = [agents.researcher]
  inputs = {
    token  = string("The API token", { protected = true })
    brief  = file("The trip brief")
    cities = list(object({ name = string("City", true), visits = integer("Visits", { default = 1 }) }), "Cities", true)
    depth  = integer("How deep", { default = 2 })
  }
  memory {
    description = "Lessons"
  }
  scratchpad = true
  memories   = [memories.notes]
  dataset "cities" {
    bind_to = inputs.cities
  }
  budget {
    dollars = 2
  }
  task "t" {
    objective = "do it"
    budget {
      tokens = 500
    }
  }
}
`;

let dir: string;
let config: Config;
beforeEach(async () => {
  dir = await temporaryDirectory('services');
  await writeFile(join(dir, 'main.hcl'), PROJECT);
  config = await loadProject(dir, {
    vars: { api_token: 'secret-var-value-77', gemini_key: 'gemini-key-from-var-88' },
    env: {},
  });
});

const BRIEF = {
  base64: Buffer.from('Visit in May.').toString('base64'),
  filename: '../x/brief.txt',
};

async function build(inputs: Record<string, unknown>, events: MissionEvent[] = []) {
  const bus = new EventBus({ runId: 'run-2' });
  bus.subscribe((event) => events.push(event));
  return createRunServices({
    config,
    mission: 'm',
    inputs,
    stateDir: join(dir, '.sortie'),
    runId: 'run-2',
    bus,
    signal: new AbortController().signal,
  });
}

describe('createRunServices', () => {
  it('lays out the run and state directories and the slots', async () => {
    const services = await build({
      token: 'tok-abcdef',
      brief: BRIEF,
      cities: [{ name: 'Paris' }],
    });
    const state = join(dir, '.sortie');
    expect(services.runDir).toBe(join(state, 'runs', 'run-2'));
    expect(
      services.slots.slots.map((slot) => [slot.label, slot.root, slot.readOnly, slot.onlyFile]),
    ).toEqual([
      ['memory', join(state, 'missions', 'm', 'memory'), false, undefined],
      ['scratchpad', join(state, 'runs', 'run-2', 'scratchpad'), false, undefined],
      ['notes', join(state, 'memories', 'notes'), false, undefined],
      ['input.brief', join(state, 'runs', 'run-2', 'inputs', 'brief'), true, 'brief.txt'],
    ]);
    expect((await stat(join(services.runDir, 'scratchpad'))).isDirectory()).toBe(true);
    // Made by the first large result stored, not for every run.
    await expect(stat(join(services.runDir, 'results'))).rejects.toMatchObject({
      code: 'ENOENT',
    });
    expect(await readFile(join(services.runDir, 'inputs', 'brief', 'brief.txt'), 'utf8')).toBe(
      'Visit in May.',
    );
  });

  it('validates inputs, applies defaults and turns file inputs into slot references', async () => {
    const services = await build({
      token: 'tok-abcdef',
      brief: BRIEF,
      cities: [{ name: 'Paris' }],
    });
    expect(services.inputs).toEqual({
      token: 'tok-abcdef',
      brief: { slot: 'input.brief', path: 'brief.txt' },
      cities: [{ name: 'Paris', visits: 1 }],
      depth: 2,
    });
    expect([...services.secrets]).toEqual([['token', 'tok-abcdef']]);
    expect(services.datasets.items('cities')).toEqual([{ name: 'Paris', visits: 1 }]);
  });

  it('uses a {path} file input where it is', async () => {
    const brief = join(dir, 'brief.md');
    await writeFile(brief, '# Brief');
    const services = await build({ brief: { path: brief }, cities: [] });
    expect(services.slots.find('input.brief')).toEqual({
      label: 'input.brief',
      root: dir,
      readOnly: true,
      onlyFile: 'brief.md',
    });
    expect(services.inputs.brief).toEqual({ slot: 'input.brief', path: 'brief.md' });
  });

  it('rejects inputs that do not match the mission inputs', async () => {
    const attempt = build({ brief: BRIEF, cities: [{ visits: 'many' }] });
    await expect(attempt).rejects.toBeInstanceOf(UsageError);
    await expect(build({ brief: BRIEF, cities: [{ visits: 'many' }] })).rejects.toThrow(
      `inputs of mission "m" are invalid: /cities/0: must have required property 'name'; /cities/0/visits: must be integer`,
    );
  });

  it('redacts secret variables, API keys and protected inputs', async () => {
    const services = await build({ token: 'tok-abcdef', brief: BRIEF, cities: [] });
    expect(
      services.redact(
        'a secret-var-value-77 b sk-literal-key-0001 c gemini-key-from-var-88 d tok-abcdef',
      ),
    ).toBe('a •••• b •••• c •••• d ••••');
    expect(runSecretValues(config).sort()).toEqual(
      ['gemini-key-from-var-88', 'secret-var-value-77', 'sk-literal-key-0001'].sort(),
    );
    expect(createRunRedactor(config)('tok-abcdef')).toBe('tok-abcdef');
  });

  // A run asks for its redactor three times and a process runs a project many times.
  it('builds one redactor per set of secret values and reuses it', async () => {
    const services = await build({ token: 'tok-abcdef', brief: BRIEF, cities: [] });
    const plain = createRunRedactor(config);
    expect(createRunRedactor(config)).toBe(plain);
    expect(services.redact).not.toBe(plain);
    const mission = config.missions.get('m')!;
    const withToken = createRunRedactor(config, [{ mission, inputs: services.inputs }]);
    expect(withToken).toBe(services.redact);
  });

  it('takes budgets from the mission and its tasks', async () => {
    const services = await build({ brief: BRIEF, cities: [] });
    const usage = { input: 500, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 };
    expect(services.budgets.record('t', usage, 0n).map((signal) => signal.type)).toEqual([
      'budget.exceeded',
    ]);
    expect(services.budgets.checkBeforeRequest('other')).toEqual({ ok: true });
    services.budgets.record('other', usage, 2_000_000_000_000n);
    expect(services.budgets.checkBeforeRequest('other')).toMatchObject({
      ok: false,
      breach: {
        scope: 'mission',
        subject: 'm',
        message: 'budget exceeded: mission "m" used $2.0000 of $2.00',
      },
    });
  });

  it('reports dataset writes as dataset.updated events', async () => {
    const events: MissionEvent[] = [];
    const services = await build({ brief: BRIEF, cities: [] }, events);
    expect(services.datasets.write('cities', [{ name: 'Lyon' }], true)).toEqual({
      ok: true,
      count: 1,
    });
    expect(services.datasets.write('cities', [{ name: 5 }], false).ok).toBe(false);
    expect(events).toMatchObject([
      { type: 'dataset.updated', actor: 'mission:m', dataset: 'cities', count: 1, appended: true },
    ]);
  });

  it('sweeps scratchpads of runs that ended more than 7 days ago', async () => {
    const old = join(dir, '.sortie', 'runs', 'old-run');
    await mkdir(join(old, 'scratchpad'), { recursive: true });
    await writeFile(join(old, 'journal.jsonl'), '');
    const eightDaysAgo = new Date(Date.now() - 8 * 24 * 60 * 60 * 1000);
    await utimes(join(old, 'journal.jsonl'), eightDaysAgo, eightDaysAgo);

    await build({ brief: BRIEF, cities: [] });
    await expect(stat(join(old, 'scratchpad'))).rejects.toMatchObject({ code: 'ENOENT' });
    expect((await stat(join(old, 'journal.jsonl'))).isFile()).toBe(true);
  });

  it('names the missions when the mission does not exist', async () => {
    const bus = new EventBus({ runId: 'run-3' });
    const attempt = createRunServices({
      config,
      mission: 'nope',
      inputs: {},
      stateDir: join(dir, '.sortie'),
      runId: 'run-3',
      bus,
      signal: new AbortController().signal,
    });
    await expect(attempt).rejects.toThrow('mission "nope" does not exist; missions: m');
  });
});

describe('protected inputs with a configured value', () => {
  const VALUED = `
variable "service_token" {
  secret = true
}
model "openai" {
  provider = "openai"
  api_key  = "sk-literal-key-0001"
}
agent "a" {
  model       = models.openai.gpt_4o
  personality = "p"
}
mission "m" {
  commander {
    model = models.openai.gpt_4o
  }
  agents = [agents.a]
  input "token" {
    type      = "string"
    protected = true
    value     = vars.service_token
  }
  task "t" {
    objective = "x"
  }
}
`;

  it('take the value from the configuration unless the run gives one', async () => {
    const root = await temporaryDirectory('valued');
    await writeFile(join(root, 'main.hcl'), VALUED);
    const valued = await loadProject(root, { env: { SERVICE_TOKEN: 'tok-from-env-4242' } });
    const start = (inputs: Record<string, unknown>) =>
      createRunServices({
        config: valued,
        mission: 'm',
        inputs,
        stateDir: join(root, '.sortie'),
        runId: 'run-v',
        bus: new EventBus({ runId: 'run-v' }),
        signal: new AbortController().signal,
      });
    expect([...(await start({})).secrets]).toEqual([['token', 'tok-from-env-4242']]);
    expect([...(await start({ token: 'given-9999' })).secrets]).toEqual([['token', 'given-9999']]);
  });
});
