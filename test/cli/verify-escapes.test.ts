/**
 * Issue 25 item 3: a hostile .hcl file's control characters (an OSC title, a bell, a colour)
 * reach `verify`'s output escaped and visible, with the carets still under the right text;
 * no ESC or BEL byte from the file reaches the terminal.
 */
/* eslint-disable no-control-regex -- these tests look for control characters on purpose */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { sortieSync } from '../e2e/cli-child.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';

let project: string;

beforeAll(async () => {
  project = await temporaryDirectory('hostile');
  await writeFile(
    join(project, 'main.hcl'),
    'bogus \u001b]0;PWNED_TITLE\u0007\u001b[31mRED {\n}\n',
  );
});

describe('verify on a file holding terminal escapes (child process)', () => {
  it('shows them escaped, carets aligned, and writes no ESC or BEL byte', () => {
    for (const env of [{}, { NO_COLOR: undefined, FORCE_COLOR: '1' }]) {
      const result = sortieSync(['verify', project], env);
      expect(result.status).toBe(2);
      const output = `${result.stdout}${result.stderr}`;
      // With colour on, the only escapes are sortie's own SGR colours, never the file's.
      const withoutOwnColours = output.replace(/\u001b\[(?:0|1|31|33)m/g, '');
      expect(withoutOwnColours).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
      expect(output).not.toContain('\u001b]');
      expect(output).not.toContain('\u001b[31mRED');
      const plain = output.replace(/\u001b\[(?:0|1|31|33)m/g, '');
      expect(plain).toContain(
        [
          ' --> main.hcl:1:10',
          '  |',
          '1 | bogus \\x1b]0;PWNED_TITLE\\x07\\x1b[31mRED {',
          '  |             ^',
        ].join('\n'),
      );
      expect(plain).toContain(
        [
          ' --> main.hcl:1:7',
          '  |',
          '1 | bogus \\x1b]0;PWNED_TITLE\\x07\\x1b[31mRED {',
          '  |       ^^^^',
        ].join('\n'),
      );
    }
  });
});
