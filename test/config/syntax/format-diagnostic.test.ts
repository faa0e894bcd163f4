import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../../src/base/errors.ts';
import { formatDiagnostic } from '../../../src/config/syntax/index.ts';

const source = [
  'mission "research" {',
  ...Array.from({ length: 11 }, () => ''),
  '  task "analyze" {',
  '  depends_on = [tasks.gater]',
  '  }',
  '}',
].join('\n');

const unknownTask: Diagnostic = {
  severity: 'error',
  message: 'unknown task "gater" in depends_on (did you mean "gather"?)',
  file: 'missions/research.hcl',
  line: 14,
  column: 17,
  endLine: 14,
  endColumn: 28,
  path: ['mission "research"', 'task "analyze"'],
};

describe('formatDiagnostic', () => {
  it('prints the example of config.md exactly', () => {
    expect(formatDiagnostic(unknownTask, source, { color: false })).toBe(
      [
        'error: unknown task "gater" in depends_on (did you mean "gather"?)',
        '  --> missions/research.hcl:14:17',
        '   |',
        '14 |   depends_on = [tasks.gater]',
        '   |                 ^^^^^^^^^^^',
        '   = in mission "research" › task "analyze"',
      ].join('\n'),
    );
  });

  it('sizes the gutter to the line number and prints a hint', () => {
    const diagnostic: Diagnostic = {
      severity: 'warning',
      message: '`role` is ignored',
      file: 'a.hcl',
      line: 2,
      column: 3,
      endLine: 2,
      endColumn: 3,
      path: [],
      hint: 'remove it',
    };
    expect(formatDiagnostic(diagnostic, 'agent "a" {\n  role = "x"\n}\n', { color: false })).toBe(
      [
        'warning: `role` is ignored',
        ' --> a.hcl:2:3',
        '  |',
        '2 |   role = "x"',
        '  |   ^',
        '  = hint: remove it',
      ].join('\n'),
    );
  });

  it('underlines to the end of the line for a multi-line span, keeping tabs and dropping \\r', () => {
    const diagnostic: Diagnostic = {
      ...unknownTask,
      line: 1,
      column: 3,
      endLine: 3,
      endColumn: 2,
      path: [],
    };
    expect(formatDiagnostic(diagnostic, '\tx = [\r\n1\r\n]', { color: false })).toBe(
      [
        'error: unknown task "gater" in depends_on (did you mean "gather"?)',
        ' --> missions/research.hcl:1:3',
        '  |',
        '1 | \tx = [',
        '  | \t ^^^^',
      ].join('\n'),
    );
  });

  it('leaves out the excerpt when the source is unknown', () => {
    expect(formatDiagnostic(unknownTask, undefined, { color: false })).toBe(
      [
        'error: unknown task "gater" in depends_on (did you mean "gather"?)',
        '  --> missions/research.hcl:14:17',
        '   = in mission "research" › task "analyze"',
      ].join('\n'),
    );
  });

  it('colors the severity and bolds the message only when asked', () => {
    const colored = formatDiagnostic(unknownTask, source, { color: true });
    expect(colored.split('\n')[0]).toBe(
      '\u001b[1m\u001b[31merror\u001b[0m: \u001b[1munknown task "gater" in depends_on (did you mean "gather"?)\u001b[0m',
    );
    expect(
      formatDiagnostic({ ...unknownTask, severity: 'warning' }, source, { color: true }),
    ).toContain('\u001b[33mwarning\u001b[0m');
    expect(formatDiagnostic(unknownTask, source, { color: false })).not.toContain('\u001b');
  });
});
