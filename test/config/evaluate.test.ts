import { describe, expect, it } from 'vitest';
import { parseExpression } from '../../src/config/syntax/index.ts';
import {
  evaluateExpression,
  evaluateTemplate,
  evaluateToString,
  EvaluationError,
} from '../../src/config/evaluate.ts';
import type { Expr, TemplateExpr } from '../../src/config/ast.ts';

function expr(text: string): Expr {
  const parsed = parseExpression(text, { file: 'x.hcl' });
  if (parsed.expr === undefined) throw new Error(`not an expression: ${text}`);
  return parsed.expr;
}

const scope = {
  inputs: { city: 'Oslo', count: 3, tags: ['a', 'b'], nested: { deep: true }, empty: null },
  vars: { region: 'eu' },
  item: { name: 'Bergen', tags: ['x', 'y'], meta: { 'key-1': 'v' } },
};

describe('evaluate', () => {
  it('interpolates templates with inputs, vars and item, including index steps', () => {
    expect(
      evaluateTemplate(
        expr(
          '"${inputs.city}/${vars.region}/${item.tags[1]}/${item.meta["key-1"]}"',
        ) as TemplateExpr,
        scope,
      ),
    ).toBe('Oslo/eu/y/v');
  });

  it('converts interpolated values: numbers and bools printed, null and absent as nothing, lists as JSON', () => {
    expect(
      evaluateToString(
        expr(
          '"${inputs.count} ${inputs.nested.deep} [${inputs.empty}] [${inputs.missing}] ${inputs.tags}"',
        ),
        scope,
      ),
    ).toBe('3 true [] [] ["a","b"]');
  });

  it('evaluates tuples and objects to JSON values', () => {
    expect(
      evaluateExpression(
        expr('{ title = inputs.city, done = false, tags = [item.name, 1] }'),
        scope,
      ),
    ).toEqual({
      title: 'Oslo',
      done: false,
      tags: ['Bergen', 1],
    });
  });

  it('fails with a positioned error for unavailable roots, bad indexes and reads into scalars', () => {
    const failure = (text: string, current = scope): [string, number] => {
      try {
        evaluateExpression(expr(text), current);
      } catch (error) {
        if (error instanceof EvaluationError) return [error.message, error.span.start.column];
      }
      return ['no error', 0];
    };
    expect(failure('item.name', { inputs: {}, vars: {} } as typeof scope)).toEqual([
      'item is not available here',
      1,
    ]);
    expect(failure('item.tags[5]')).toEqual(['index 5 is out of range: item.tags has 2 items', 10]);
    expect(failure('item.tags["a"]')).toEqual([
      'item.tags is a list: index it with a whole number',
      10,
    ]);
    expect(failure('inputs.city.first')).toEqual([
      'cannot read "first" of inputs.city: it is a string, not an object',
      13,
    ]);
    expect(failure('secrets.x')).toEqual(['secrets is not available here', 1]);
  });
});
