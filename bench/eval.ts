/**
 * `sortie eval` at scale (issue 31): the compiled CLI runs an eval of CASES cases × 2 variants
 * at concurrency 16 on a mission whose scripted model answers each request after 50 ms (two
 * requests a run). Told: the wall time against the ideal (every run's model time, 16 at once),
 * the report's pass count, the model requests, and the CLI's peak RSS (VmHWM, read from /proc
 * while it runs).
 *
 *   node_modules/.bin/tsx bench/eval.ts [CASES=200]
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI_ENV, ROOT } from '../test/e2e/cli-child.ts';
import { buildCli } from './built-cli.ts';
import { oneTaskProject, twoTurnModel } from './one-task-mission.ts';

const CASES = Number(process.argv[2] ?? 200);
const VARIANTS = 2;
const CONCURRENCY = 16;
const MODEL_MS = 50;
const REQUESTS_PER_RUN = 2;
const CLI = join(buildCli('sortie-bench-eval'), 'cli/main.js');

const PROJECT = oneTaskProject('hook', '');

function evalFile(): string {
  const cases = Array.from(
    { length: CASES },
    (_, n) => `  case "c${n}" {\n    inputs = { n = ${n} }\n  }\n`,
  ).join('');
  return `eval "scale" {
  mission     = "hook"
  repeat      = 1
  concurrency = ${CONCURRENCY}
${cases}
  variant "plain" {}
  variant "brief" {
    objectives = { work = "Work briefly" }
  }
  expect "summary" {
    contains = "done"
  }
}
`;
}

const model = await twoTurnModel(MODEL_MS);

const folder = mkdtempSync(join(tmpdir(), 'sortie-bench-eval-'));
writeFileSync(join(folder, 'main.hcl'), PROJECT);
mkdirSync(join(folder, '.evals'));
writeFileSync(join(folder, '.evals', 'scale.hcl'), evalFile());
const reportFile = join(folder, 'report.json');
const args = [
  'eval',
  folder,
  '--plain',
  '--json',
  reportFile,
  '--state-dir',
  join(folder, '.state'),
  '--var',
  'api_key=sk-bench-eval',
  '--var',
  `base_url=${model.baseUrl('openai')}`,
];
const started = performance.now();
const child = spawn(process.execPath, [CLI, ...args], {
  cwd: ROOT,
  env: { ...process.env, ...CLI_ENV, SORTIE_RUN_SOURCES: undefined, XDG_STATE_HOME: folder },
  stdio: ['ignore', 'ignore', 'inherit'],
});
// VmHWM only grows: its last reading before the process ends is its peak.
let peakKb = 0;
const sampler = setInterval(() => {
  try {
    const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
    peakKb = Math.max(peakKb, Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0));
  } catch {
    // The process has just ended.
  }
}, 50);
const exitCode = await new Promise<number | null>((resolve) => child.on('exit', resolve));
clearInterval(sampler);
const wallSeconds = (performance.now() - started) / 1000;

const runs = CASES * VARIANTS;
const report = JSON.parse(readFileSync(reportFile, 'utf8')) as {
  evals: Array<{ runs: Array<{ passed: boolean }> }>;
};
const passes = report.evals.flatMap((entry) => entry.runs).filter((run) => run.passed).length;
const idealSeconds = (runs * REQUESTS_PER_RUN * MODEL_MS) / 1000 / CONCURRENCY;
const load = loadavg()
  .map((value) => value.toFixed(1))
  .join(' / ');
await model.close();
rmSync(folder, { recursive: true, force: true });

const problems: string[] = [];
if (exitCode !== 0) problems.push(`exit ${exitCode}`);
if (passes !== runs) problems.push(`${passes} of ${runs} runs passed`);
if (model.requests.length !== runs * REQUESTS_PER_RUN) {
  problems.push(`${model.requests.length} model requests for ${runs} runs`);
}
process.stdout.write(
  [
    `### eval.ts — ${CASES} cases × ${VARIANTS} variants at concurrency ${CONCURRENCY}, ${MODEL_MS} ms model, compiled CLI, ${cpus().length} cores`,
    '',
    '| runs | wall time | ideal (model time / 16) | wall / ideal | runs/s | passed | model requests | problems | CLI peak RSS | load 1 / 5 / 15 min |',
    '|---|---|---|---|---|---|---|---|---|---|',
    `| ${runs} | ${wallSeconds.toFixed(1)} s | ${idealSeconds.toFixed(1)} s | ${(wallSeconds / idealSeconds).toFixed(2)} | ${(runs / wallSeconds).toFixed(1)} | ${passes} | ${model.requests.length} | ${problems.length === 0 ? 'none' : problems.join('; ')} | ${(peakKb / 1024).toFixed(0)} MB | ${load} |`,
    '',
  ].join('\n'),
);
if (problems.length > 0) process.exitCode = 1;
