/**
 * Opens a text in the person's editor (`$VISUAL`, else `$EDITOR`) and returns it as saved. The
 * editor runs through the shell, as git runs it, so `EDITOR="code --wait"` works; the file is
 * a fresh one in a private temporary folder, removed afterwards.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../base/errors.ts';

/** The editor command the environment names; a usage error when it names none. */
export function editorCommand(env: Record<string, string | undefined>): string {
  const editor = [env.VISUAL, env.EDITOR].find(
    (value) => value !== undefined && value.trim() !== '',
  );
  if (editor === undefined) {
    throw new UsageError(
      '--edit needs an editor: set EDITOR (or VISUAL)',
      'e.g. EDITOR=nano sortie fork ...',
    );
  }
  return editor;
}

/** `text` as the person saved it in `fileName` (a plain name such as `response.json`). */
export function editText(
  text: string,
  fileName: string,
  env: Record<string, string | undefined>,
): string {
  const editor = editorCommand(env);
  const folder = mkdtempSync(join(tmpdir(), 'sortie-edit-'));
  try {
    const path = join(folder, fileName);
    writeFileSync(path, text);
    const ran = spawnSync(`${editor} '${path}'`, { shell: true, stdio: 'inherit', env });
    if (ran.error !== undefined || ran.status !== 0) {
      const how =
        ran.error?.message ??
        (ran.status === null ? `signal ${ran.signal}` : `status ${ran.status}`);
      throw new UsageError(`the editor (${editor}) did not finish (${how}); nothing was forked`);
    }
    return readFileSync(path, 'utf8');
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
