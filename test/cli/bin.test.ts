import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');

/** A copy of the launcher beside a stand-in build and stand-in sources that say which ran. */
const project = mkdtempSync(join(tmpdir(), 'sortie-bin-'));
mkdirSync(join(project, 'bin'));
mkdirSync(join(project, 'dist', 'cli'), { recursive: true });
mkdirSync(join(project, 'src', 'cli'), { recursive: true });
copyFileSync(join(ROOT, 'bin', 'sortie.js'), join(project, 'bin', 'sortie.js'));
writeFileSync(join(project, 'package.json'), '{ "type": "module" }\n');
writeFileSync(join(project, 'dist', 'cli', 'main.js'), "console.log('compiled');\n");
writeFileSync(
  join(project, 'src', 'cli', 'main.ts'),
  "const ran: string = 'sources';\nconsole.log(ran);\n",
);
symlinkSync(join(ROOT, 'node_modules'), join(project, 'node_modules'), 'dir');

afterAll(() => rmSync(project, { recursive: true, force: true }));

function launch(environment: Record<string, string>): string {
  const { SORTIE_RUN_SOURCES: _ignored, ...inherited } = process.env;
  const result = spawnSync(process.execPath, [join(project, 'bin', 'sortie.js')], {
    encoding: 'utf8',
    env: { ...inherited, ...environment },
  });
  return result.stdout.trim();
}

describe('bin/sortie.js', () => {
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
});
