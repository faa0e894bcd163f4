/**
 * A list that only grows, shared between its versions: a version sees the first `length`
 * entries of one array, and appending to the newest version pushes onto that array in place,
 * so a parent's list of 10,000 children is built in 10,000 steps, not by copying the list for
 * each child. Appending to an older version copies the part it sees (the store never does).
 */
export class AppendList<T> implements Iterable<T> {
  /** A list with no entries (each call its own array: a shared one would be appended to). */
  static empty<T>(): AppendList<T> {
    return new AppendList<T>([], 0);
  }

  private constructor(
    private readonly items: T[],
    /** How many entries this version holds. */
    readonly length: number,
  ) {}

  /** The entry at `index` (from 0), or undefined past this version's end. */
  at(index: number): T | undefined {
    return index >= 0 && index < this.length ? this.items[index] : undefined;
  }

  /** This list with `value` at its end; this version still sees its own entries only. */
  append(value: T): AppendList<T> {
    const items = this.items.length === this.length ? this.items : this.items.slice(0, this.length);
    items.push(value);
    return new AppendList(items, this.length + 1);
  }

  /** Whether `other` keeps its entries in the same array (for tests of what versions share). */
  sharesEntriesWith(other: AppendList<T>): boolean {
    return this.items === other.items;
  }

  *[Symbol.iterator](): IterableIterator<T> {
    for (let at = 0; at < this.length; at++) yield this.items[at] as T;
  }
}
