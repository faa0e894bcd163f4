/**
 * Packs sortie with `npm pack` (which builds it: `prepack`) and installs the tarball into an
 * empty project with no network. npm installs the tarball `--offline` with an empty cache and
 * an unreachable registry; the dependencies it would fetch are placed beforehand as hard links
 * (copies across file systems) of the production dependency tree installed for this checkout
 * (in a git worktree, possibly another checkout's linked in), which npm keeps because they
 * satisfy the tarball's ranges. docs/decisions.md ("sortie as a package").
 */
import { execFile } from 'node:child_process';
import {
  copyFile,
  link,
  lstat,
  mkdir,
  readdir,
  readlink,
  realpath,
  symlink,
} from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './cli-child.ts';

const run = promisify(execFile);

/** An npm command's environment: no colour, no update check, no registry to reach. */
const NPM_ENV = {
  ...process.env,
  NO_COLOR: '1',
  npm_config_update_notifier: 'false',
  npm_config_registry: 'http://127.0.0.1:9/',
};

/** Runs npm in `cwd`; the output on failure says what npm said. */
export async function npm(cwd: string, args: string[]): Promise<string> {
  const { stdout } = await run('npm', args, {
    cwd,
    env: NPM_ENV,
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout;
}

/** `npm pack` of the checkout into `destination`; returns the tarball's path. */
export async function packSortie(destination: string): Promise<string> {
  const output = await npm(ROOT, ['pack', '--json', '--pack-destination', destination]);
  // prepack's build prints before the JSON report.
  const report = JSON.parse(output.slice(output.indexOf('['))) as Array<{ filename: string }>;
  const filename = report[0]?.filename;
  if (filename === undefined) throw new Error(`npm pack reported no tarball: ${output}`);
  return join(destination, basename(filename));
}

/**
 * Places the checkout's production dependencies (and `extra` top-level packages) in
 * `project/node_modules`, with the `.bin` links of those that have them.
 */
export async function placeDependencies(project: string, extra: string[]): Promise<void> {
  // The tree is listed where it was installed: a git worktree whose node_modules links to
  // another checkout's would have npm ls report every package there as extraneous.
  const modules = await realpath(join(ROOT, 'node_modules'));
  const listed = await npm(dirname(modules), ['ls', '--omit=dev', '--all', '--parseable']);
  const topLevel = listed
    .split('\n')
    .map((line) => relative(modules, line))
    .filter((path) => path !== '' && !path.startsWith('..') && !path.includes(`node_modules`));
  for (const name of new Set([...topLevel, ...extra])) {
    await linkTree(join(modules, name), join(project, 'node_modules', name));
  }
  const bins = join(project, 'node_modules', '.bin');
  await mkdir(bins, { recursive: true });
  for (const bin of await readdir(join(modules, '.bin'))) {
    const target = await readlink(join(modules, '.bin', bin));
    const placed = topLevel.some((name) => target.startsWith(`..${sep}${name}${sep}`));
    if (placed) await symlink(target, join(bins, bin));
  }
}

/** A copy of a folder made of hard links (copies where the file system refuses them). */
async function linkTree(from: string, to: string): Promise<void> {
  await mkdir(dirname(to), { recursive: true });
  const stats = await lstat(from);
  if (stats.isSymbolicLink()) {
    await symlink(await readlink(from), to);
  } else if (stats.isDirectory()) {
    await mkdir(to);
    for (const entry of await readdir(from)) await linkTree(join(from, entry), join(to, entry));
  } else {
    await link(from, to).catch(() => copyFile(from, to));
  }
}
