/**
 * `sortie verify` on monstrous input: a 5 MB string literal, 1,000 levels of nesting on one
 * line, and an unterminated string. Each runs in a fresh `node bin/sortie.js verify` child
 * (the sources through tsx, as the tests run them); a preloaded hook reports the child's
 * wall time, CPU time and peak RSS at exit. Also prints the number of diagnostics and the
 * bytes of output. Run: `node_modules/.bin/tsx bench/verify-monsters.ts`.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const work = mkdtempSync(join(tmpdir(), 'sortie-bench-monsters-'));

const cases: Array<[name: string, hcl: string]> = [
  ['5 MB string', `variable "x" {\n  default = "${'a'.repeat(5 * 1024 * 1024)}"\n}\n`],
  [
    '1,000 nested objects on one line',
    `variable "x" {\n  default = ${'{ a = '.repeat(1000)}1${' }'.repeat(1000)}\n}\n`,
  ],
  ['unterminated string', `variable "x" {\n  default = "abc\n}\n`],
];

// Preloaded into the child: reports its resources when it exits.
const reporter = join(work, 'report.cjs');
writeFileSync(
  reporter,
  `const start = Date.now();
process.on('exit', () => {
  const usage = process.resourceUsage();
  process.stderr.write('\\nBENCH ' + JSON.stringify({
    wallMs: Date.now() - start,
    cpuMs: Math.round((usage.userCPUTime + usage.systemCPUTime) / 1000),
    maxRssMb: Math.round(usage.maxRSS / 1024),
  }) + '\\n');
});
`,
);

console.log('### verify-monsters.ts — `sortie verify` on monstrous input (sources via tsx)\n');
console.log('| input | wall | CPU | peak RSS | diagnostics | output |');
console.log('|---|---|---|---|---|---|');
for (const [index, [name, hcl]] of cases.entries()) {
  const project = join(work, `case-${index}`);
  mkdirSync(project);
  writeFileSync(join(project, 'main.hcl'), hcl);
  const run = spawnSync(process.execPath, ['bin/sortie.js', 'verify', project], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: {
      ...process.env,
      SORTIE_RUN_SOURCES: '1',
      NO_COLOR: '1',
      NODE_OPTIONS: `--require ${reporter}`,
    },
  });
  const line = run.stderr.split('\n').find((text) => text.startsWith('BENCH '));
  const figures = JSON.parse(line?.slice('BENCH '.length) ?? '{}') as Record<string, number>;
  const diagnostics = run.stdout.split('\n').filter((text) => /^(error|warning): /.test(text));
  console.log(
    `| ${name} | ${figures.wallMs} ms | ${figures.cpuMs} ms | ${figures.maxRssMb} MB | ${diagnostics.length} | ${Buffer.byteLength(run.stdout).toLocaleString('en-US')} bytes |`,
  );
}
rmSync(work, { recursive: true, force: true });
