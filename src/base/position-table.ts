/**
 * Positions (offset and length in a file) by item index, in one growing Float64Array: two
 * numbers per item instead of a Map entry and an object each.
 */
import type { TextPosition } from './append-file.ts';

/** Item index → position; indexes may arrive in any order. */
export class PositionTable {
  /** Offset and length + 1 per index (a length of 0 marks an index without a position). */
  private slots = new Float64Array(64);
  /** Indexes with a position. */
  private stored = 0;

  /** How many indexes have a position. */
  get size(): number {
    return this.stored;
  }

  set(index: number, position: TextPosition): void {
    if (2 * index + 1 >= this.slots.length) {
      let size = this.slots.length;
      while (2 * index + 1 >= size) size *= 2;
      const grown = new Float64Array(size);
      grown.set(this.slots);
      this.slots = grown;
    }
    if (this.slots[2 * index + 1] === 0) this.stored += 1;
    this.slots[2 * index] = position.offset;
    this.slots[2 * index + 1] = position.length + 1;
  }

  get(index: number): TextPosition | undefined {
    const stored = this.slots[2 * index + 1] ?? 0;
    if (!Number.isInteger(index) || index < 0 || stored === 0) return undefined;
    return { offset: this.slots[2 * index] ?? 0, length: stored - 1 };
  }

  /** Every stored position, by ascending index. */
  *entries(): Generator<[number, TextPosition]> {
    for (let index = 0; 2 * index + 1 < this.slots.length; index++) {
      const stored = this.slots[2 * index + 1]!;
      if (stored !== 0) yield [index, { offset: this.slots[2 * index]!, length: stored - 1 }];
    }
  }
}
