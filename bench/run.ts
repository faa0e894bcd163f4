/**
 * `npm run bench`: runs every benchmark script in this folder in its own process (so each
 * measures a cold start and its own memory), prints their output, and rewrites the figures
 * section of bench/README.md.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
const root = dirname(here);

/** Benchmarks in the order they are reported; each prints Markdown lines on stdout. */
const benchmarks = [
  'verify.ts',
  'verify-monsters.ts',
  'models.ts',
  'tui.ts',
  'runtime.ts',
  'overhead.ts',
  'resume.ts',
  'queue.ts',
  'parallel-tools.ts',
  'serve.ts',
  'eval.ts',
].filter((name) => existsSync(join(here, name)));

const tsx = join(root, 'node_modules', '.bin', 'tsx');
const sections: string[] = [];
for (const name of benchmarks) {
  process.stderr.write(`bench: ${name}\n`);
  const run = spawnSync(tsx, [join(here, name)], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (run.status !== 0) {
    sections.push(`### ${name}\n\nfailed with exit code ${run.status}\n`);
    continue;
  }
  sections.push(run.stdout.trim() + '\n');
}

const report = sections.join('\n');
process.stdout.write(report);

const readmePath = join(here, 'README.md');
const start = '<!-- figures:start -->';
const end = '<!-- figures:end -->';
const readme = readFileSync(readmePath, 'utf8');
const before = readme.slice(0, readme.indexOf(start) + start.length);
const after = readme.slice(readme.indexOf(end));
const stamp = `\nMeasured ${new Date().toISOString().slice(0, 10)} on this project's CI machine (2 cores, Node ${process.version}).\n\n`;
writeFileSync(readmePath, before + stamp + report + '\n' + after);
