/**
 * Positions (offset and length in a file) by item index, in one growing Float64Array: two
 * numbers per item instead of a Map entry and an object each.
 */
import type { TextPosition } from './conversation-file.ts';

/** Item index → position; indexes may arrive in any order. */
export class PositionTable {
  /** Offset and length + 1 per index (a length of 0 marks an index without a position). */
  private slots = new Float64Array(64);

  set(index: number, position: TextPosition): void {
    if (2 * index + 1 >= this.slots.length) {
      let size = this.slots.length;
      while (2 * index + 1 >= size) size *= 2;
      const grown = new Float64Array(size);
      grown.set(this.slots);
      this.slots = grown;
    }
    this.slots[2 * index] = position.offset;
    this.slots[2 * index + 1] = position.length + 1;
  }

  get(index: number): TextPosition | undefined {
    const stored = this.slots[2 * index + 1] ?? 0;
    if (!Number.isInteger(index) || index < 0 || stored === 0) return undefined;
    return { offset: this.slots[2 * index] ?? 0, length: stored - 1 };
  }
}
