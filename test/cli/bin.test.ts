import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryDirectorySync } from '../helpers/temp-dir.ts';

const ROOT = join(import.meta.dirname, '../..');

/** A copy of the launcher beside a stand-in build and stand-in sources that say which ran. */
const project = temporaryDirectorySync('bin');
mkdirSync(join(project, 'bin'));
mkdirSync(join(project, 'dist', 'cli'), { recursive: true });
mkdirSync(join(project, 'src', 'cli'), { recursive: true });
copyFileSync(join(ROOT, 'bin', 'sortie.js'), join(project, 'bin', 'sortie.js'));
writeFileSync(join(project, 'package.json'), '{ "type": "module" }\n');
writeFileSync(
  join(project, 'dist', 'cli', 'main.js'),
  "console.log('compiled');\nconsole.error(`NODE_ENV=${process.env.NODE_ENV}`);\n",
);
writeFileSync(
  join(project, 'src', 'cli', 'main.ts'),
  "const ran: string = 'sources';\nconsole.log(ran);\n",
);
symlinkSync(join(ROOT, 'node_modules'), join(project, 'node_modules'), 'dir');

function launch(environment: Record<string, string>): string {
  return launchFully(environment).stdout.trim();
}

function launchFully(environment: Record<string, string>): {
  status: number | null;
  stdout: string;
  stderr: string;
} {
  const { SORTIE_RUN_SOURCES: _ignored, ...inherited } = process.env;
  const { status, stdout, stderr } = spawnSync(
    process.execPath,
    [join(project, 'bin', 'sortie.js')],
    { encoding: 'utf8', env: { ...inherited, ...environment } },
  );
  return { status, stdout, stderr };
}

describe('bin/sortie.js', () => {
  it('runs the CLI with NODE_ENV=production when it is unset, so React loads its production build', () => {
    const { NODE_ENV: _unset, ...inherited } = process.env;
    const { stderr } = spawnSync(process.execPath, [join(project, 'bin', 'sortie.js')], {
      encoding: 'utf8',
      env: { ...inherited, SORTIE_RUN_SOURCES: '' },
    });
    expect(stderr).toBe('NODE_ENV=production\n');
    expect(launchFully({ NODE_ENV: '' }).stderr).toBe('NODE_ENV=production\n');
  });

  it('keeps a NODE_ENV that is set', () => {
    expect(launchFully({ NODE_ENV: 'development' }).stderr).toBe('NODE_ENV=development\n');
  });

  it('runs the compiled CLI when a build exists', () => {
    expect(launch({})).toBe('compiled');
  });

  it('runs the sources when SORTIE_RUN_SOURCES=1, even beside a build', () => {
    expect(launch({ SORTIE_RUN_SOURCES: '1' })).toBe('sources');
  });

  it('runs the sources when there is no build', () => {
    rmSync(join(project, 'dist'), { recursive: true });
    expect(launch({})).toBe('sources');
  });

  it('says the package must be reinstalled when it has neither a build nor sources', () => {
    rmSync(join(project, 'src'), { recursive: true });
    expect(launchFully({ SORTIE_RUN_SOURCES: '1' })).toEqual({
      status: 2,
      stdout: '',
      stderr: `sortie: no build at ${join(project, 'dist', 'cli', 'main.js')}; reinstall the package\n`,
    });
  });
});
