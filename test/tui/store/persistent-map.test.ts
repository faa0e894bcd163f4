/**
 * The store's persistent map and append list: every version keeps what it saw, new keys keep
 * insertion order, and a version branching off an older one never shows up in the newer.
 */
import { describe, expect, it } from 'vitest';
import { AppendList, PersistentMap } from '../../../src/tui/store/index.ts';

describe('PersistentMap', () => {
  it('keeps each version as it was and iterates in insertion order', () => {
    const first = PersistentMap.from([
      ['b', 1],
      ['a', 2],
    ]);
    const second = first.set('c', 3).set('b', 10);
    expect([...first]).toEqual([
      ['b', 1],
      ['a', 2],
    ]);
    expect([...second.entries()]).toEqual([
      ['b', 10],
      ['a', 2],
      ['c', 3],
    ]);
    expect([...second.keys()]).toEqual(['b', 'a', 'c']);
    expect([...second.values()]).toEqual([10, 2, 3]);
    expect(first.has('c')).toBe(false);
    expect(first.get('c')).toBeUndefined();
    expect([first.size, second.size]).toEqual([2, 3]);
    const seen: string[] = [];
    second.forEach((value, key) => seen.push(`${key}=${value}`));
    expect(seen).toEqual(['b=10', 'a=2', 'c=3']);
    expect(second.changedSince(first)).toEqual(['b', 'c']);
  });

  it('gives a key added to an older version its own slot, unseen by the newer version', () => {
    const base = PersistentMap.from([['a', 1]]);
    const newer = base.set('b', 2);
    const branch = base.set('c', 3);
    const newest = newer.set('d', 4);
    expect([...branch]).toEqual([
      ['a', 1],
      ['c', 3],
    ]);
    expect(branch.has('b')).toBe(false);
    expect(newer.has('c')).toBe(false);
    expect([...newest]).toEqual([
      ['a', 1],
      ['b', 2],
      ['d', 4],
    ]);
    expect([...branch.set('b', 5)]).toEqual([
      ['a', 1],
      ['c', 3],
      ['b', 5],
    ]);
  });
});

describe('AppendList', () => {
  it('appends in place to the newest version and copies for an older one', () => {
    const one = AppendList.empty<string>().append('x');
    const two = one.append('y');
    const three = two.append('z');
    const fork = two.append('w');
    expect([...one]).toEqual(['x']);
    expect([...three]).toEqual(['x', 'y', 'z']);
    expect([...fork]).toEqual(['x', 'y', 'w']);
    expect([three.at(2), fork.at(2), two.at(2), two.at(-1)]).toEqual([
      'z',
      'w',
      undefined,
      undefined,
    ]);
    expect(three.sharesEntriesWith(one)).toBe(true);
    expect(fork.sharesEntriesWith(three)).toBe(false);
    expect(AppendList.empty<string>().sharesEntriesWith(AppendList.empty<string>())).toBe(false);
  });
});
