import { describe, expect, it } from 'vitest';
import { sortieSync as sortie } from './cli-child.ts';
import { temporaryDirectorySync } from '../helpers/temp-dir.ts';

const INPUTS = 'test/cli/fixtures/inputs';

// Sequential: each child is awaited synchronously, so concurrency would only stack timeouts.
// The timeouts are as the other child-process files give: cold CLI starts on a loaded machine.
describe('sortie usage errors (child process)', { timeout: 120_000 }, () => {
  it('rejects an unknown flag with a suggestion and exit 2', () => {
    expect(sortie(['run', INPUTS, '--inptu', 'x=1'])).toEqual({
      status: 2,
      stdout: '',
      stderr:
        "error: unknown option '--inptu'\n(Did you mean --input?)\n(run sortie --help for usage)\n",
    });
  });

  it('suggests the option an unknown flag is the start of (--mock for --mock-model)', () => {
    expect(sortie(['run', INPUTS, '--mock', 'mock.yaml'])).toEqual({
      status: 2,
      stdout: '',
      stderr:
        "error: unknown option '--mock'\n(Did you mean --mock-model?)\n(run sortie --help for usage)\n",
    });
  });

  it('asks for the mission when the project has several', () => {
    expect(sortie(['run', INPUTS])).toEqual({
      status: 2,
      stdout: '',
      stderr:
        'error: the project has 2 missions; name the one to run: report, digest\nhint: sortie run DIR MISSION, e.g. sortie run DIR report\n',
    });
  });

  it('names an unknown mission with a suggestion', () => {
    expect(sortie(['run', INPUTS, 'reprot']).stderr).toBe(
      'error: unknown mission "reprot" (did you mean "report"?)\nhint: the project\'s missions: report, digest\n',
    );
  });

  it('names a missing required input and its description', () => {
    expect(sortie(['run', INPUTS, 'report'])).toEqual({
      status: 2,
      stdout: '',
      stderr:
        'error: missing required input "topic" (What the report is about): give it with --input topic=VALUE\n',
    });
  });

  it('reports every badly typed input with what was expected', () => {
    const result = sortie([
      'run',
      INPUTS,
      'report',
      '--input',
      'topic=tides',
      '--input',
      'pages=2.5',
      '--input',
      'draft=maybe',
      '--input',
      'tags=[x',
      '--input',
      'colour=red',
    ]);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(
      [
        'error: invalid inputs for mission "report":',
        '  --input pages=2.5: expected a whole number',
        '  --input draft=maybe: expected true/false, 1/0 or yes/no',
        '  --input tags=[x: expected JSON (a list like ["a","b"])',
        '  --input colour: mission "report" has no input "colour"',
        '',
      ].join('\n'),
    );
  });

  it('names an unset API-key variable and the three ways to set it', () => {
    const result = sortie(['run', 'examples/hello'], {
      OPENAI_API_KEY: undefined,
      SORTIE_VAR_openai_api_key: undefined,
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(
      [
        'error: variable "openai_api_key" has no value',
        '  --> main.hcl:10:14',
        '   |',
        '10 |   api_key  = vars.openai_api_key',
        '   |              ^^^^^^^^^^^^^^^^^^^',
        '   = in model "openai"',
        '   = hint: set it with --var openai_api_key=VALUE, the environment variable SORTIE_VAR_openai_api_key, or OPENAI_API_KEY',
        '',
        'configuration has 1 error',
        '',
      ].join('\n'),
    );
  });

  it.each([
    [['--json', '--plain'], 'error: --json and --plain cannot be used together\n'],
    [
      ['--json', '--quiet'],
      'error: --json and --quiet cannot be used together\nhint: --quiet belongs to the line log\n',
    ],
    [
      ['--step'],
      'error: --step needs the terminal UI to step and continue\nhint: run in an interactive terminal (CI unset) without --json, --plain or --quiet\n',
    ],
    [
      ['--break', 'tool:call_agent'],
      'error: --break needs the terminal UI to step and continue\nhint: run in an interactive terminal (CI unset) without --json, --plain or --quiet\n',
    ],
    [
      ['--break', 'bogus'],
      'error: bad breakpoint "bogus"\nhint: use tool:NAME (e.g. tool:call_agent), actor:ID (e.g. actor:commander:analyze), model, route, error, stall, loop, cost:USD (e.g. cost:0.50) or tokens:N (e.g. tokens:100000)\n',
    ],
    [
      ['--record', 'a.jsonl', '--replay-model', 'b.jsonl'],
      'error: --record and --replay-model cannot be used together\n',
    ],
    [['--replay-lenient'], 'error: --replay-lenient only applies with --replay-model FILE\n'],
  ])('rejects the flag combination %j', (flags, stderr) => {
    expect(sortie(['run', INPUTS, 'digest', ...flags])).toEqual({ status: 2, stdout: '', stderr });
  });

  it('reports a missing cassette without a stack trace', () => {
    const result = sortie(['run', INPUTS, 'digest', '--replay-model', 'no-such-cassette.jsonl']);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^error: cassette not found: .*no-such-cassette\.jsonl\n/);
    expect(result.stderr).not.toContain('    at ');
  });

  it('says a folder given to --replay-model is a folder and names the cassette in it', () => {
    expect(sortie(['run', 'examples/hello', '--replay-model', 'examples/hello'])).toEqual({
      status: 2,
      stdout: '',
      stderr:
        'error: --replay-model needs a cassette file, and examples/hello is a folder\nhint: its cassette: --replay-model examples/hello/cassette.jsonl\n',
    });
  });

  // One child process per test: two cold CLI starts in one test could pass its timeout on a
  // loaded machine.
  it('says a folder with no cassette in it is a folder and says how to record one', () => {
    const empty = temporaryDirectorySync('no-cassette');
    expect(sortie(['run', 'examples/hello', '--replay-model', empty]).stderr).toBe(
      `error: --replay-model needs a cassette file, and ${empty} is a folder\nhint: record one with \`sortie run --record FILE\`\n`,
    );
  });

  it('reports a missing project directory', () => {
    expect(sortie(['run', 'no/such/dir'])).toMatchObject({ status: 2, stdout: '' });
  });

  it('lists no runs in an empty state directory and rejects an unknown run id', () => {
    const stateDir = temporaryDirectorySync('state');
    expect(sortie(['runs', '--state-dir', stateDir])).toEqual({
      status: 0,
      stdout: 'no runs yet\n',
      stderr: '',
    });
    const hint =
      'hint: list the runs with `sortie runs [DIR]`, or point --state-dir at the right place\n';
    for (const command of ['show', 'replay']) {
      expect(sortie([command, 'r-404', '--state-dir', stateDir])).toEqual({
        status: 2,
        stdout: '',
        stderr: `error: no run "r-404" in ${stateDir}\n${hint}`,
      });
    }
  });

  it('rejects a replay speed out of range', () => {
    expect(sortie(['replay', 'x', '--speed', '100']).stderr).toBe(
      'error: --speed 100: expected a number from 0.25 to 64\nhint: 1 plays at the recorded pace, 2 twice as fast\n',
    );
  });
});

describe('sortie models (child process)', { timeout: 120_000 }, () => {
  it('prints every key with API name, prices and reasoning flag, local models at $0', () => {
    const result = sortie(['models', 'test/cli/fixtures/models']);
    expect(result.status).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines.slice(0, 9)).toEqual([
      'model "local" · ollama · prompt caching on · base_url http://localhost:11434/v1',
      '  KEY    API NAME     INPUT  OUTPUT  CACHE READ  CACHE WRITE  REASONING  NOTE',
      '  llama  llama3.2:3b     $0      $0          $0           $0  no         alias',
      '',
      'model "claude" · anthropic · prompt caching on',
      '  KEY                API NAME                     INPUT  OUTPUT  CACHE READ  CACHE WRITE  REASONING  NOTE',
      '  house              claude-house-special         $1.50   $7.25          $0           $0  no         alias, custom price',
      '  sonnet             claude-sonnet-4-6            $3.00  $15.00       $0.30        $3.75  yes        alias',
      '  mystery            claude-next-preview              -       -           -            -  no         alias, unpriced',
    ]);
    expect(lines.slice(-3)).toEqual(['', '$ per 1M tokens', '']);
  });

  it('lists the built-in models in a folder with no project, and says what they are', () => {
    const result = sortie(['models'], {}, temporaryDirectorySync('no-project'));
    expect(result.status).toBe(0);
    expect(result.stderr).toBe('');
    const lines = result.stdout.split('\n');
    expect(lines.slice(0, 5)).toEqual([
      'no project here (no .hcl files): the built-in models a model block of each provider has',
      '',
      'provider "openai"',
      '  KEY            API NAME        INPUT   OUTPUT  CACHE READ  CACHE WRITE  REASONING',
      '  gpt_5_5        gpt-5.5         $5.00   $30.00       $0.50        $5.00  yes',
    ]);
    expect(lines).toContain('provider "anthropic"');
    expect(lines).toContain('provider "gemini"');
    expect(lines).toContain(
      '  claude_haiku_4_5   claude-haiku-4-5-20251001    $1.00   $5.00       $0.10        $1.25  yes',
    );
    expect(lines.slice(-3)).toEqual(['', '$ per 1M tokens', '']);
  });

  it('still says a folder given on the command line holds no project', () => {
    const empty = temporaryDirectorySync('no-project');
    expect(sortie(['models', empty])).toEqual({
      status: 2,
      stdout: '',
      stderr: `error: no .hcl files in ${empty}\nhint: start a project there with: sortie init ${empty}\n`,
    });
  });
});

describe('sortie verify --tokens (child process)', { timeout: 120_000 }, () => {
  it("adds each task's commander harness tokens after the summary", () => {
    const result = sortie(['verify', 'examples/research', '--tokens']);
    expect(result.status).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[1]).toBe(
      'commander harness tokens per task (system prompt + tool schemas, bytes / 4):',
    );
    expect(lines.slice(2, -1).map((line) => line.replace(/ +[\d,]+$/, ' N'))).toEqual([
      '  research/gather N',
      '  research/analyze N',
      '  research/decide N',
      '  research/publish N',
      '  research/follow_up N',
    ]);
  });
});
