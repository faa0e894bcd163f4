/**
 * `sortie init [DIR]`: writes the project of `init-files.ts` into DIR, never over a file that
 * is there (a usage error naming them, nothing written), and says how to run it.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { UsageError } from '../base/errors.ts';
import { describeFileSystemError, isFileSystemError } from '../base/file-system-error.ts';
import { ExitCode } from '../base/exit-codes.ts';
import { kindOf } from '../run/find-run.ts';
import { initFiles } from './init-files.ts';
import type { CliIo } from './io.ts';

/** Scaffolds the project; returns the exit code. */
export async function initCommand(directory: string, io: CliIo): Promise<number> {
  const files = initFiles(basename(resolve(directory)));
  const paths = files.map(([name]) => join(directory, name));
  const present = paths.filter((path) => kindOf(path) !== 'missing');
  if (present.length > 0) {
    throw new UsageError(
      `sortie init does not overwrite files: ${present.join(', ')} ${present.length === 1 ? 'exists' : 'exist'}; nothing was written`,
      'give a new or empty folder: sortie init DIR',
    );
  }
  try {
    await mkdir(directory, { recursive: true });
    // 'wx': a file that appeared since the check is still not overwritten.
    for (const [index, [, text]] of files.entries()) {
      await writeFile(paths[index]!, text, { flag: 'wx' });
    }
  } catch (error) {
    if (!isFileSystemError(error)) throw error;
    throw new UsageError(`sortie init ${directory}: ${describeFileSystemError(error)}`);
  }
  const project = directory === '.' ? '.' : directory;
  io.stdout(
    [
      `created ${paths.join(', ')}`,
      `try it offline: sortie run ${project} --mock-model ${join(directory, 'mock.yaml')}`,
      `with a model:   OPENAI_API_KEY=... sortie run ${project}`,
      '',
    ].join('\n'),
  );
  return ExitCode.ok;
}
