/**
 * Benchmarks that measure the runtime run in a compiled copy of the sources (as
 * `bin/sortie.js` runs): under tsx every module carries its loader thread, source maps and
 * esbuild's name helpers (≈ 90 MB of RSS and some CPU per closure).
 */
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const BUILD_CONFIG = join(here, 'tsconfig.runtime-build.json');
const OUT_DIR = join(dirname(here), 'node_modules/.cache/sortie-bench-runtime');

/** The compiled copy of `bench/<name>.ts`. */
export function compiledBench(name: string): string {
  return join(OUT_DIR, 'bench', `${name}.js`);
}

/** Compiles the sources and the bench scripts; tsc still emits when unrelated files have type errors. */
export function buildCompiledCopy(): void {
  try {
    execFileSync(
      process.execPath,
      [join(dirname(here), 'node_modules/typescript/bin/tsc'), '-p', BUILD_CONFIG],
      {
        stdio: 'pipe',
      },
    );
  } catch {
    // The emitted files are what we run; type errors elsewhere are other work in progress.
  }
}
