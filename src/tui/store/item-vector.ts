/**
 * A persistent array of one iterated task's items, by item index: chunks of 64 entries under
 * one spine. Setting an entry copies the spine and that entry's chunk and shares every other
 * chunk with the version before, so an update of one item of 10,000 copies ≈ 220 references
 * instead of the 10,000 entries a copied Map would, and a reader finds what changed between
 * two versions by comparing chunks by identity (see `changedSince`).
 */

const CHUNK_BITS = 6;
const CHUNK_SIZE = 1 << CHUNK_BITS;
const CHUNK_MASK = CHUNK_SIZE - 1;

type Chunk<T> = readonly (T | undefined)[];

/** Items by index, replaced rather than changed: `set` returns a new version. */
export class ItemVector<T> {
  private static readonly EMPTY = new ItemVector<never>([], 0);

  /** The vector with no items. */
  static empty<T>(): ItemVector<T> {
    return ItemVector.EMPTY as ItemVector<T>;
  }

  private constructor(
    private readonly chunks: readonly (Chunk<T> | undefined)[],
    /** How many indices hold an entry. */
    readonly size: number,
  ) {}

  get(index: number): T | undefined {
    return this.chunks[index >>> CHUNK_BITS]?.[index & CHUNK_MASK];
  }

  /** This vector with `value` at `index` (a non-negative integer). */
  set(index: number, value: T): ItemVector<T> {
    if (!Number.isSafeInteger(index) || index < 0) {
      throw new RangeError(`an item index is a non-negative integer, not ${index}`);
    }
    const at = index >>> CHUNK_BITS;
    const old = this.chunks[at];
    const chunk =
      old === undefined ? new Array<T | undefined>(CHUNK_SIZE).fill(undefined) : [...old];
    const added = chunk[index & CHUNK_MASK] === undefined ? 1 : 0;
    chunk[index & CHUNK_MASK] = value;
    const chunks = [...this.chunks];
    while (chunks.length < at) chunks.push(undefined);
    chunks[at] = chunk;
    return new ItemVector(chunks, this.size + added);
  }

  /** The entries in index order. */
  *values(): IterableIterator<T> {
    for (const chunk of this.chunks) {
      if (chunk === undefined) continue;
      for (const value of chunk) if (value !== undefined) yield value;
    }
  }

  /**
   * The indices whose entry is not the same object as in `previous`, ascending: chunks both
   * versions share are skipped whole, so this costs the spine plus the chunks that changed.
   */
  changedSince(previous: ItemVector<T>): number[] {
    const changed: number[] = [];
    const length = Math.max(this.chunks.length, previous.chunks.length);
    for (let at = 0; at < length; at++) {
      const now = this.chunks[at];
      const before = previous.chunks[at];
      if (now === before) continue;
      for (let slot = 0; slot < CHUNK_SIZE; slot++) {
        if (now?.[slot] !== before?.[slot]) changed.push((at << CHUNK_BITS) + slot);
      }
    }
    return changed;
  }

  /** The chunk that holds `index`, for tests of what two versions share. */
  chunkOf(index: number): Chunk<T> | undefined {
    return this.chunks[index >>> CHUNK_BITS];
  }
}
