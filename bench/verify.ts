/**
 * `sortie verify` on a generated 8,000-line project (issue 12; the first argument changes the
 * size): cold CLI start (median of 5 child processes running the compiled CLI: wall, and the
 * child's CPU and peak RSS from /usr/bin/time, steadier on a loaded machine), the same with
 * `--strict-hcl` (hcl2json checks every file), and in-process `loadProject` (first and warm
 * median).
 * Target (quality.md): ≤ 500 ms cold. Run: `node_modules/.bin/tsx bench/verify.ts [lines]`.
 *
 * The CLI is compiled with tsconfig.build.json into node_modules/.cache/sortie-bench rather
 * than dist/, so that measuring never leaves a stale dist/ behind for bin/sortie.js to pick up.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { readdirSync, readFileSync } from 'node:fs';
import { builtinCatalog, decodeProject, loadProject } from '../src/config/index.ts';
import {
  checkWithHcl2Json,
  loadTextFile,
  parseSource,
  resolveProjectFolder,
} from '../src/config/syntax/index.ts';

const ROOT = join(import.meta.dirname, '..');
/** The build's package root: dist/ beside a copy of package.json, as an installed package has. */
const PACKAGE = join(ROOT, 'node_modules/.cache/sortie-bench');
const BUILD = join(PACKAGE, 'dist');
/** `inline N`: a project with one dataset of N items written inline (memory of the load). */
const INLINE = process.argv[2] === 'inline';
const TARGET_LINES = INLINE ? 0 : Number(process.argv[2] ?? 8_000);
const INLINE_ITEMS = Number(process.argv[3] ?? 100_000);
/**
 * Preloaded into each child: prints the main thread's own CPU time at exit, from
 * /proc/self/task/PID/stat. On an idle machine the main thread is a cold start's critical
 * path (V8 compiles and collects garbage on other threads too), so on a loaded machine this
 * says more about the idle wall time than the wall time does.
 */
const MAIN_THREAD_HOOK = join(PACKAGE, 'main-thread-cpu.mjs');

/** One mission of about 120 lines: inputs, a dataset, a parallel iteration, a router. */
function missionText(index: number): string {
  const tasks = Array.from({ length: 6 }, (_, task) => {
    const depends = task === 0 ? '' : `    depends_on = [tasks.step_${task - 1}]\n`;
    return `  task "step_${task}" {\n    objective = "Step ${task} of mission ${index} about \${inputs.topic}"\n${depends}    output = {\n      summary = string("What was found", true)\n      score   = number("Confidence from 0 to 1")\n    }\n  }\n`;
  }).join('\n');
  return `mission "mission_${index}" {
  directive = "Generated mission ${index}"

  commander {
    model = models.openai.gpt_4_1_mini
  }
  agents = [agents.agent_${index}, agents.shared]

  inputs = {
    topic  = string("Topic", true)
    cities = list(object({
      name = string("City", true)
      size = integer("Population")
    }), "Cities", { default = [] })
  }

  dataset "cities" {
    bind_to = inputs.cities
  }

  task "fan_out" {
    objective = "Look at \${item.name} for \${inputs.topic}"
    iterator {
      dataset           = datasets.cities
      parallel          = true
      concurrency_limit = 4
    }
  }

${tasks}
  task "decide" {
    objective  = "Decide what to do next"
    depends_on = [tasks.step_5, tasks.fan_out]
    router {
      route {
        target    = tasks.finish
        condition = "Done"
      }
    }
  }

  task "finish" {
    objective = "Write the final note"
  }
}

agent "agent_${index}" {
  model       = models.anthropic.claude_haiku_4_5
  personality = "Agent number ${index}: careful and brief."
  tools       = [builtins.http.get, tools.lookup]
}
`;
}

/** Writes the project and returns its directory and line count. */
function generateProject(): { directory: string; lines: number } {
  const directory = mkdtempSync(join(tmpdir(), 'sortie-bench-verify-'));
  mkdirSync(join(directory, 'missions'));
  const head = `variable "openai_api_key" {\n  secret = true\n}\nvariable "anthropic_api_key" {\n  secret = true\n}\nmodel "openai" {\n  provider = "openai"\n  api_key  = vars.openai_api_key\n}\nmodel "anthropic" {\n  provider = "anthropic"\n  api_key  = vars.anthropic_api_key\n}\ntool "lookup" {\n  implements  = builtins.http.get\n  description = "Look a word up"\n  inputs = {\n    word = string("The word", true)\n  }\n  url = "https://example.com/define?q=\${inputs.word}"\n}\nagent "shared" {\n  model       = models.openai.gpt_4_1_mini\n  personality = "Shared helper"\n}\n`;
  writeFileSync(join(directory, 'main.hcl'), head);
  let lines = head.split('\n').length - 1;
  for (let index = 0; lines < TARGET_LINES; index++) {
    const text = missionText(index);
    writeFileSync(
      join(directory, 'missions', `mission_${String(index).padStart(3, '0')}.hcl`),
      text,
    );
    lines += text.split('\n').length - 1;
  }
  return { directory, lines };
}

/** One mission whose dataset holds `count` items written inline, one per line. */
function generateInlineProject(count: number): { directory: string; lines: number } {
  const directory = mkdtempSync(join(tmpdir(), 'sortie-bench-verify-inline-'));
  const items = Array.from(
    { length: count },
    (_, index) => `      { name = "City ${index}", size = ${index} },\n`,
  ).join('');
  const text = `variable "key" {\n  secret = true\n}\nmodel "openai" {\n  provider = "openai"\n  api_key  = vars.key\n}\nagent "scout" {\n  model       = models.openai.gpt_4_1_mini\n  personality = "Careful"\n}\nmission "inline" {\n  commander {\n    model = models.openai.gpt_4_1_mini\n  }\n  agents = [agents.scout]\n  dataset "cities" {\n    schema = {\n      name = string("City", true)\n      size = integer("Population")\n    }\n    items = [\n${items}    ]\n  }\n  task "visit" {\n    objective = "Look at \${item.name}"\n    iterator {\n      dataset  = datasets.cities\n      parallel = true\n    }\n  }\n}\n`;
  writeFileSync(join(directory, 'main.hcl'), text);
  return { directory, lines: text.split('\n').length - 1 };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function build(): void {
  mkdirSync(PACKAGE, { recursive: true });
  copyFileSync(join(ROOT, 'package.json'), join(PACKAGE, 'package.json'));
  writeFileSync(
    MAIN_THREAD_HOOK,
    `import { readFileSync } from 'node:fs';\nprocess.on('exit', () => {\n  const stat = readFileSync('/proc/self/task/' + process.pid + '/stat', 'utf8');\n  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');\n  process.stderr.write('MAIN ' + (Number(fields[11]) + Number(fields[12])) * 10 + '\\n');\n});\n`,
  );
  try {
    execFileSync(
      join(ROOT, 'node_modules/.bin/tsc'),
      ['-p', 'tsconfig.build.json', '--outDir', BUILD],
      { cwd: ROOT, stdio: 'pipe' },
    );
  } catch {
    // tsc still emits when other parts of the tree have type errors; the CLI files are what we run.
  }
}

/** Where the time goes: hcl2json over every file, sortie's own parser, and decoding (schemas, ajv). */
async function measurePhases(
  directory: string,
): Promise<{ hcl2json: number; parser: number; decode: number }> {
  const paths = [
    'main.hcl',
    ...readdirSync(join(directory, 'missions')).map((name) => `missions/${name}`),
  ];
  const texts = paths.map((path) => readFileSync(join(directory, path), 'utf8'));
  let started = performance.now();
  await Promise.all(paths.map((path, index) => checkWithHcl2Json(path, texts[index] ?? '')));
  const hcl2json = performance.now() - started;
  started = performance.now();
  const files = paths.map(
    (path, index) => parseSource(path, texts[index] ?? '', join(directory, path)).file,
  );
  const parser = performance.now() - started;
  started = performance.now();
  decodeProject(files, {
    root: directory,
    catalog: builtinCatalog,
    env: {},
    loadText: (requested) => loadTextFile(directory, requested),
    resolveFolder: (fromFile, requested) => resolveProjectFolder(directory, fromFile, requested),
  });
  return { hcl2json, parser, decode: performance.now() - started };
}

interface ColdRuns {
  wall: number[];
  cpu: number[];
  /** The main thread's CPU (10 ms ticks). */
  main: number[];
  rss: number[];
}

/** Five fresh `sortie verify` processes: wall, and CPU and peak RSS from /usr/bin/time. */
function coldRuns(directory: string, flags: readonly string[], count = 5): ColdRuns {
  const runs: ColdRuns = { wall: [], cpu: [], main: [], rss: [] };
  for (let run = 0; run < count; run++) {
    const started = performance.now();
    const result = spawnSync(
      '/usr/bin/time',
      [
        '-f',
        'TIME %U %S %M',
        process.execPath,
        '--import',
        MAIN_THREAD_HOOK,
        join(BUILD, 'cli/main.js'),
        'verify',
        ...flags,
        directory,
      ],
      { encoding: 'utf8' },
    );
    runs.wall.push(performance.now() - started);
    if (result.status !== 0)
      throw new Error(`verify failed (${result.status}): ${result.stdout}${result.stderr}`);
    const [user, system, maxKb] = (/TIME (\S+) (\S+) (\d+)/.exec(result.stderr) ?? [])
      .slice(1)
      .map(Number);
    runs.cpu.push(((user ?? NaN) + (system ?? NaN)) * 1000);
    runs.main.push(Number(/MAIN (\d+)/.exec(result.stderr)?.[1] ?? NaN));
    runs.rss.push((maxKb ?? NaN) / 1024);
  }
  return runs;
}

function format(ms: number): string {
  return `${ms.toFixed(0)} ms`;
}

function printCold(label: string, runs: ColdRuns): void {
  console.log(
    `${label} (compiled CLI, median of ${runs.wall.length}): wall ${format(median(runs.wall))} [${runs.wall.map(format).join(', ')}], CPU (user + system) ${format(median(runs.cpu))} [${runs.cpu.map(format).join(', ')}], main thread ${format(median(runs.main))} [${runs.main.map(format).join(', ')}], peak RSS ${median(runs.rss).toFixed(0)} MB`,
  );
}

/** `inline N`: cold verify of N inline items, default and --strict-hcl (three runs each). */
function inlineMain(): void {
  const { directory, lines } = generateInlineProject(INLINE_ITEMS);
  build();
  console.log(`project: ${INLINE_ITEMS} inline items, ${lines} lines in ${directory}`);
  printCold('sortie verify, cold', coldRuns(directory, [], 3));
  printCold('sortie verify --strict-hcl, cold', coldRuns(directory, ['--strict-hcl'], 3));
  console.log(
    `load average ${loadavg()
      .map((value) => value.toFixed(1))
      .join(' ')}`,
  );
}

async function main(): Promise<void> {
  const { directory, lines } = generateProject();
  build();
  const cold = coldRuns(directory, []);
  const strict = coldRuns(directory, ['--strict-hcl']);
  const phases = await measurePhases(directory);
  const inProcess: number[] = [];
  for (let run = 0; run < 6; run++) {
    const started = performance.now();
    await loadProject(directory, { env: {} });
    inProcess.push(performance.now() - started);
  }
  const baseline: number[] = [];
  for (let run = 0; run < 5; run++) {
    const started = performance.now();
    spawnSync(process.execPath, ['-e', '0']);
    baseline.push(performance.now() - started);
  }
  console.log(`project: ${lines} lines in ${directory}`);
  printCold('sortie verify, cold', cold);
  printCold('sortie verify --strict-hcl, cold', strict);
  console.log(
    `load average ${loadavg()
      .map((value) => value.toFixed(1))
      .join(' ')}`,
  );
  console.log(`node -e 0, for reference (median of 5): ${format(median(baseline))}`);
  console.log(
    `loadProject in process: first ${format(inProcess[0] ?? Number.NaN)}, warm median ${format(median(inProcess.slice(1)))}`,
  );
  console.log(
    `phases, first use in this process: hcl2json (--strict-hcl only) ${format(phases.hcl2json)}, own parser ${format(phases.parser)}, decode + validate ${format(phases.decode)}`,
  );
  console.log(`target ≤ 500 ms cold: ${median(cold.wall) <= 500 ? 'met' : 'not met'}`);
}

if (INLINE) inlineMain();
else await main();
