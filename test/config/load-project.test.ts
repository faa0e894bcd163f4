import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/base/errors.ts';
import { analyzeProject, loadProject } from '../../src/config/index.ts';
import { rows } from './helpers.ts';
import { temporaryDirectorySync } from '../helpers/temp-dir.ts';

const FIXTURE = join(import.meta.dirname, '../fixtures/config/squadron');

function project(files: Record<string, string>): string {
  const root = temporaryDirectorySync('config');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe('loadProject', () => {
  it('loads a project written for the reference runtime unchanged, with warnings for what it ignores', async () => {
    const config = await loadProject(FIXTURE, { env: {} });
    expect([...config.missions.keys()]).toEqual(['midwest_weather', 'sequential_test']);
    expect([...(config.missions.get('midwest_weather')?.tasks.keys() ?? [])]).toEqual([
      'get_cities',
      'get_weather',
      'analyze_weather',
    ]);
    expect(config.agents.get('analyst')?.personality).toBe(
      'You analyse weather data carefully and state your assumptions.\n',
    );
    expect(config.variables.get('app_name')).toMatchObject({
      value: 'squadron',
      source: 'default',
    });
    expect(config.variables.get('openai_api_key')).toMatchObject({ source: 'unset', secret: true });
    expect(rows(config.warnings)).toEqual([
      'warning 4:3 `role` is ignored by sortie',
      'warning 82:5 commander of mission "sequential_test": reasoning = "low" has no effect: model gpt-4o (models.openai.gpt_4o) is not reasoning-capable',
      'warning 3:3 `allowed_models` is ignored by sortie',
      'warning 2:1 `storage` blocks are ignored by sortie',
      'warning 7:1 `command_center` blocks are ignored by sortie',
    ]);
    expect(config.warnings.map((warning) => warning.file)).toEqual([
      'agents.hcl',
      'mission.hcl',
      'models.hcl',
      'operations.hcl',
      'operations.hcl',
    ]);
  });

  it('reads variables from --var, SORTIE_VAR_name, NAME and the default, in that order', async () => {
    const root = project({
      'main.hcl': `variable "a" {\n  default = "d"\n}\nvariable "b" {\n  default = "d"\n}\nvariable "c" {\n  default = "d"\n}\nvariable "e" {\n  default = 5\n}\n`,
    });
    const config = await loadProject(root, {
      vars: { a: 'cli' },
      env: { SORTIE_VAR_a: 'prefixed', SORTIE_VAR_b: 'prefixed', B: 'plain', C: 'plain' },
    });
    expect([...config.variables.values()].map((v) => [v.name, v.value, v.source])).toEqual([
      ['a', 'cli', 'cli'],
      ['b', 'prefixed', 'env_prefixed'],
      ['c', 'plain', 'env'],
      ['e', 5, 'default'],
    ]);
  });

  it('checks every file with hcl2json when SORTIE_STRICT_HCL is 1 or true, else only broken ones', async () => {
    const root = project({
      'a.hcl': 'variable "a" {}\n',
      'b.hcl': 'variable "b" {\n  default = \n}\n',
    });
    const checked = async (env: Record<string, string>, strictHcl?: boolean) =>
      (await analyzeProject(root, { env, ...(strictHcl === undefined ? {} : { strictHcl }) }))
        .hclChecked;
    expect([
      await checked({}),
      await checked({ SORTIE_STRICT_HCL: '1' }),
      await checked({ SORTIE_STRICT_HCL: 'True' }),
      await checked({ SORTIE_STRICT_HCL: '0' }),
      await checked({ SORTIE_STRICT_HCL: '1' }, false),
      await checked({}, true),
    ]).toEqual([
      ['b.hcl'],
      ['a.hcl', 'b.hcl'],
      ['a.hcl', 'b.hcl'],
      ['b.hcl'],
      ['b.hcl'],
      ['a.hcl', 'b.hcl'],
    ]);
  });

  it('throws one ConfigError carrying every diagnostic, warnings included', async () => {
    const root = project({
      'a.hcl': `storage {\n}\n`,
      'b.hcl': `mission "x" {\n  task "t" {\n  }\n}\n`,
    });
    const error = await loadProject(root, { env: {} }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect(rows((error as ConfigError).diagnostics)).toEqual([
      'warning 1:1 `storage` blocks are ignored by sortie',
      'error 1:1 missing required block "commander": commander { model = models.CONFIG.KEY }',
      'error 2:3 missing required attribute "objective"',
    ]);
    expect((error as ConfigError).diagnostics[2]?.path).toEqual(['mission "x"', 'task "t"']);
  });

  it('reports every load() rule at the call position', async () => {
    const root = project({
      'main.hcl': [
        'variable "a" {',
        '  description = load("/etc/passwd.md")',
        '}',
        'variable "b" {',
        '  description = load("../x.md")',
        '}',
        'variable "c" {',
        '  description = load(".")',
        '}',
        'variable "d" {',
        '  description = load("x.json")',
        '}',
        'variable "e" {',
        '  description = load("x.md")',
        '}',
        'variable "f" {',
        '  description = load("link.md")',
        '}',
        'variable "g" {',
        '  description = load(vars.a)',
        '}',
        '',
      ].join('\n'),
      'outside/secret.md': 'no',
    });
    symlinkSync(join(root, 'outside/secret.md'), join(root, 'link-target.md'));
    const outer = temporaryDirectorySync('outer');
    writeFileSync(join(outer, 'secret.md'), 'no');
    symlinkSync(join(outer, 'secret.md'), join(root, 'link.md'));
    const analysis = await analyzeProject(root, { env: {} });
    expect(rows(analysis.diagnostics)).toEqual([
      'error 2:17 load("/etc/passwd.md"): absolute paths are not allowed',
      'error 5:17 load("../x.md"): escapes the project root: ../x.md',
      'error 8:17 load("."): resolves to the project root itself: .',
      'error 11:17 load("x.json"): only .md and .txt files can be loaded',
      'error 14:17 load("x.md"): file not found: x.md',
      'error 17:17 load("link.md"): escapes the project root: link.md',
      'error 20:17 load() takes one argument: a literal path such as "prompts/x.md"',
    ]);
  });

  it('loads files with @/, ./ and bare paths against the project root', async () => {
    const root = project({
      'missions/main.hcl': `variable "a" {\n  description = "\${load("@/prompts/a.md")}|\${load("./prompts/a.md")}|\${load("prompts/a.md")}"\n}\n`,
      'prompts/a.md': 'A',
    });
    const config = await loadProject(root, { env: {} });
    expect(config.variables.get('a')?.description).toBe('A|A|A');
  });
});

describe('analyzeProject', () => {
  it('reports an unsupported expression once, without echoes from the attribute it stands in', async () => {
    const root = project({
      'main.hcl': `variable "a" {\n  description = 1 + 2\n}\n`,
    });
    const analysis = await analyzeProject(root, { env: {} });
    expect(rows(analysis.diagnostics)).toEqual(['error 2:17 unsupported expression: arithmetic']);
  });
});

describe('syntax errors and semantic checks', () => {
  it('keeps checking a file whose only problem is an unsupported expression', async () => {
    const root = project({
      'main.hcl': `variable "a" {\n  description = 1 + 2\n  colour = "x"\n}\n`,
    });
    const analysis = await analyzeProject(root, { env: {} });
    expect(rows(analysis.diagnostics)).toEqual([
      'error 2:17 unsupported expression: arithmetic',
      'error 3:3 unknown attribute "colour"',
    ]);
  });

  it('does not echo syntax errors with semantic errors of the same file, but checks the other files', async () => {
    const root = project({
      'a.hcl': `mission "m" {\n  task "a" {\n    objective = "x\n  }\n}\n`,
      'b.hcl': `variable "v" {\n  colour = 1\n}\n`,
    });
    const analysis = await analyzeProject(root, { env: {} });
    const files = new Set(analysis.diagnostics.map((diagnostic) => diagnostic.file));
    expect([...files]).toEqual(['a.hcl', 'b.hcl']);
    expect(
      analysis.diagnostics
        .filter((d) => d.file === 'a.hcl')
        .every((d) => d.message.startsWith('syntax error')),
    ).toBe(true);
    expect(rows(analysis.diagnostics.filter((d) => d.file === 'b.hcl'))).toEqual([
      'error 2:3 unknown attribute "colour"',
    ]);
  });
});

describe('packet folders', () => {
  it('are not part of the project: their .hcl files, syntax errors and packets are left out', async () => {
    const root = project({
      'config.hcl': `packet "kb" {\n  path        = "./kb"\n  description = "knowledge base"\n}\n`,
      'kb/stray.hcl': `model "ghost" { provider = "openai" api_key = "x" }\n`,
      'kb/inner/packet.hcl': `packet "inner" {\n  path = "@/elsewhere"\n}\n`,
      'kb/doc.md': 'A document.\n',
      'elsewhere/x.md': 'x',
    });
    const analysis = await analyzeProject(root, { env: {} });
    expect(analysis.diagnostics).toEqual([]);
    expect(analysis.config.files).toEqual(['config.hcl']);
    expect([...analysis.config.packets.values()]).toEqual([
      {
        name: 'kb',
        path: 'kb',
        description: 'knowledge base',
        span: expect.objectContaining({ file: 'config.hcl' }),
      },
    ]);
  });
});
