/**
 * The built CLI for the tests that must run what users run: `tsc` of tsconfig.build.json into
 * a package folder of its own (bin/sortie.js, dist/, package.json, the checkout's
 * node_modules; no sources, so no tsx), made once per suite run however many test files ask
 * (they run in parallel processes): the first to ask builds, the others wait for it.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, symlinkSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './cli-child.ts';

const run = promisify(execFile);

/**
 * Where this suite run's build goes: vitest.config.ts names a fresh folder per run
 * (`SORTIE_TEST_BUILD`); a test file run on its own without it gets its own.
 */
const home = process.env.SORTIE_TEST_BUILD ?? join(tmpdir(), `sortie-test-build-${process.pid}`);
const DONE = join(home, 'built');
const FAILED = join(home, 'failed');

/** The package folder of the built CLI; `bin/sortie.js` in it runs `dist/`. */
export async function builtCli(): Promise<string> {
  const pkg = join(home, 'pkg');
  mkdirSync(home, { recursive: true });
  let builder = true;
  try {
    mkdirSync(join(home, 'lock'));
  } catch {
    builder = false;
  }
  if (builder) {
    try {
      await build(pkg);
    } catch (error) {
      writeFileSync(FAILED, String(error));
      throw error;
    }
    writeFileSync(DONE, '');
  } else {
    await untilBuilt();
  }
  return pkg;
}

/** The build as `npm run build` makes it (declarations left out). */
async function build(pkg: string): Promise<void> {
  mkdirSync(join(pkg, 'bin'), { recursive: true });
  await run(
    process.execPath,
    [
      join(ROOT, 'node_modules/typescript/bin/tsc'),
      ...['-p', 'tsconfig.build.json', '--outDir', join(pkg, 'dist'), '--declaration', 'false'],
    ],
    { cwd: ROOT },
  );
  cpSync(join(ROOT, 'bin', 'sortie.js'), join(pkg, 'bin', 'sortie.js'));
  cpSync(join(ROOT, 'package.json'), join(pkg, 'package.json'));
  symlinkSync(join(ROOT, 'node_modules'), join(pkg, 'node_modules'));
}

/** Resolves once another process has built the CLI; rejects when its build failed. */
function untilBuilt(): Promise<void> {
  return new Promise((resolve, reject) => {
    const settle = (): void => {
      if (existsSync(DONE)) resolve();
      else if (existsSync(FAILED)) reject(new Error(`the CLI's build failed: see ${FAILED}`));
      else return;
      watcher.close();
    };
    const watcher = watch(home, settle);
    // Written before the watch began.
    settle();
  });
}

/** Node's arguments that start the built CLI in `pkg`. */
export function builtBin(pkg: string): string[] {
  return [join(pkg, 'bin', 'sortie.js')];
}
