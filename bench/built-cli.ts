/**
 * Benchmarks that run the CLI as child processes run it compiled, as an installed package
 * does (`npm run build` into a cache folder): under tsx every process carries its loader,
 * source maps and esbuild's helpers. Also the CPU time of a child process, from /proc.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(dirname(fileURLToPath(import.meta.url)));

/**
 * Compiles the sources of `root` (default this checkout) into `node_modules/.cache/NAME/dist`,
 * laid out as `dist/` is (the CLI finds its package.json two folders above `cli/`); type errors
 * elsewhere do not stop it. Returns the folder holding `cli/main.js`.
 */
export function buildCli(name: string, root: string = HERE): string {
  const builtRoot = join(HERE, 'node_modules/.cache', name);
  const built = join(builtRoot, 'dist');
  try {
    rmSync(builtRoot, { recursive: true, force: true });
    mkdirSync(built, { recursive: true });
    copyFileSync(join(root, 'package.json'), join(builtRoot, 'package.json'));
    const tsc = join(HERE, 'node_modules/typescript/bin/tsc');
    execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', built], {
      cwd: root,
      stdio: 'pipe',
    });
  } catch {
    // The emitted files are what we run.
  }
  return built;
}

/** User + system time of a process in milliseconds (Linux /proc; NaN elsewhere or once gone). */
export function cpuMsOf(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    // utime and stime, in clock ticks of 10 ms.
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}
