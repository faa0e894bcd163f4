import { describe, expect, it } from 'vitest';
import { findCycles } from '../../src/config/graph-cycles.ts';

const edges = (pairs: Array<[string, string[]]>) => new Map(pairs);

describe('findCycles', () => {
  it('returns one path per cycle, from its first name in order, sorted by that name', () => {
    const cycles = findCycles(
      ['x', 'a', 'b', 'c', 'd'],
      edges([
        ['a', ['b']],
        ['b', ['c']],
        ['c', ['a', 'd']],
        ['d', ['d']],
        ['x', ['a']],
      ]),
    );
    expect(cycles).toEqual([
      ['a', 'b', 'c', 'a'],
      ['d', 'd'],
    ]);
  });

  it('finds nothing in an acyclic graph and ignores edges to unknown names', () => {
    expect(
      findCycles(
        ['a', 'b'],
        edges([
          ['a', ['b', 'mission_next']],
          ['mission_next', ['a']],
        ]),
      ),
    ).toEqual([]);
  });
});
