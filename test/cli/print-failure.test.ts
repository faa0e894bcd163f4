import { describe, expect, it } from 'vitest';
import { printFailure } from '../../src/cli/print-failure.ts';
import type { CliIo } from '../../src/cli/io.ts';
import { ProjectConfigError } from '../../src/config/load-project.ts';
import { ProjectNotFoundError } from '../../src/config/syntax/project-errors.ts';
import { UsageError } from '../../src/base/errors.ts';

async function capture(error: unknown): Promise<{ code: number; err: string }> {
  let err = '';
  const io: CliIo = {
    stdout: () => undefined,
    stderr: (text) => void (err += text),
    env: {},
    stdoutIsTty: false,
    stderrIsTty: false,
  };
  const code = await printFailure(error, io);
  return { code, err };
}

describe('printFailure', () => {
  it('shows control characters of a message escaped (a file name quoted from the user)', async () => {
    const error = new UsageError('no file "a\u001b]0;T\u0007.yaml"', 'check "\u001b[31m"');
    expect(await capture(error)).toEqual({
      code: 2,
      err: 'error: no file "a\\x1b]0;T\\x07.yaml"\nhint: check "\\x1b[31m"\n',
    });
    expect(await capture(new Error('boom\u009b2J'))).toEqual({
      code: 1,
      err: 'error: internal error: boom\\u009b2J\n',
    });
  });

  it('prints configuration errors with their source lines and exits 2', async () => {
    const error = new ProjectConfigError(
      [
        {
          severity: 'error',
          message: 'variable "key" has no value',
          file: 'main.hcl',
          line: 2,
          column: 13,
          endLine: 2,
          endColumn: 21,
          path: ['model "openai"'],
          hint: 'set it with --var key=VALUE, the environment variable SORTIE_VAR_key, or KEY',
        },
      ],
      '/project',
      new Map([['main.hcl', 'model "openai" {\n  api_key = vars.key\n}\n']]),
    );
    expect(await capture(error)).toEqual({
      code: 2,
      err: [
        'error: variable "key" has no value',
        ' --> main.hcl:2:13',
        '  |',
        '2 |   api_key = vars.key',
        '  |             ^^^^^^^^',
        '  = in model "openai"',
        '  = hint: set it with --var key=VALUE, the environment variable SORTIE_VAR_key, or KEY',
        '',
        'configuration has 1 error',
        '',
      ].join('\n'),
    });
  });

  it('prints usage errors with their hint and a missing project, exiting 2', async () => {
    expect(await capture(new UsageError('bad flag', 'try this'))).toEqual({
      code: 2,
      err: 'error: bad flag\nhint: try this\n',
    });
    expect(await capture(new ProjectNotFoundError('my project', 'empty'))).toEqual({
      code: 2,
      err: "error: no .hcl files in my project\nhint: start a project there with: sortie init 'my project'\n",
    });
    expect(await capture(new ProjectNotFoundError('x', 'missing'))).toEqual({
      code: 2,
      err: 'error: no such file or directory: x\n',
    });
  });

  it('reports anything else as an internal error without a stack trace, exiting 1', async () => {
    expect(await capture(new TypeError('boom'))).toEqual({
      code: 1,
      err: 'error: internal error: boom\n',
    });
  });
});
