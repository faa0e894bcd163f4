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

  it('cuts a long line to about 100 columns around the column, marking each cut', () => {
    const line = `  default = "${'a'.repeat(500)}X${'b'.repeat(500)}"`;
    const diagnostic: Diagnostic = {
      ...unknownTask,
      message: 'bad',
      line: 1,
      column: 514,
      endLine: 1,
      endColumn: 515,
      path: [],
    };
    expect(formatDiagnostic(diagnostic, `${line}\n`, { color: false })).toBe(
      [
        'error: bad',
        ' --> missions/research.hcl:1:514',
        '  |',
        `1 | …${'a'.repeat(30)}X${'b'.repeat(69)}…`,
        `  |  ${' '.repeat(30)}^`,
      ].join('\n'),
    );
  });

  it('fills the window with text before the column near the end of a long line', () => {
    const line = `x = "${'a'.repeat(300)}" ; y`;
    const diagnostic: Diagnostic = {
      ...unknownTask,
      message: 'bad',
      line: 1,
      column: line.indexOf(';') + 1,
      endLine: 1,
      endColumn: line.indexOf(';') + 2,
      path: [],
    };
    const [, , , source, carets] = formatDiagnostic(diagnostic, line, { color: false }).split('\n');
    expect(source).toBe(`1 | …${'a'.repeat(95)}" ; y`);
    expect(carets).toBe(`  |  ${' '.repeat(97)}^`);
  });

  it('counts a wide character as two columns, so the carets stay under the span', () => {
    const diagnostic: Diagnostic = {
      ...unknownTask,
      message: 'bad',
      line: 1,
      column: 8,
      endLine: 1,
      endColumn: 10,
      path: [],
    };
    expect(formatDiagnostic(diagnostic, 'x = "日本" ; y', { color: false })).toBe(
      [
        'error: bad',
        ' --> missions/research.hcl:1:8',
        '  |',
        '1 | x = "日本" ; y',
        '  |          ^^',
      ].join('\n'),
    );
  });

  it('cuts a message longer than 1,000 characters', () => {
    const message = `unknown attribute "${'n'.repeat(5000)}"`;
    const first = formatDiagnostic({ ...unknownTask, message }, undefined, {
      color: false,
    }).split('\n')[0];
    expect(first).toBe(`error: ${message.slice(0, 999)}…`);
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
