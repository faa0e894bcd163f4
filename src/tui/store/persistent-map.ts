/**
 * A map whose `set` returns a new version and shares everything else with the old one, for the
 * store's indices by actor id (actors, details, children, cost rows). Keys get a slot in order
 * of insertion; the slots are an index every version of the map shares (a version sees only the
 * slots below its `size`), and the values are an `ItemVector` by slot. Setting a key of 10,000
 * therefore copies one chunk and the vector's spine (≈ 220 references), where a copied `Map`
 * would copy every entry, and iteration keeps insertion order as a `Map` does.
 */
import { ItemVector } from './item-vector.ts';

/** Keys by slot and slots by key, shared by the versions of one map and appended to in place. */
interface KeyIndex<K> {
  keys: K[];
  slots: Map<K, number>;
}

/** A persistent `ReadonlyMap`: no entry is ever removed, `set` returns the new version. */
export class PersistentMap<K, V> implements ReadonlyMap<K, V> {
  /** The map with no entries. */
  static empty<K, V>(): PersistentMap<K, V> {
    return new PersistentMap<K, V>({ keys: [], slots: new Map() }, ItemVector.empty(), 0);
  }

  /** The map holding `entries`, in their order. */
  static from<K, V>(entries: Iterable<readonly [K, V]>): PersistentMap<K, V> {
    let map = PersistentMap.empty<K, V>();
    for (const [key, value] of entries) map = map.set(key, value);
    return map;
  }

  private constructor(
    private readonly index: KeyIndex<K>,
    private readonly bySlot: ItemVector<V>,
    /** How many keys this version holds (its slots are 0 … size − 1). */
    readonly size: number,
  ) {}

  /** The slot of `key` in this version; a later version's key is not in this one. */
  private slotOf(key: K): number | undefined {
    const slot = this.index.slots.get(key);
    return slot !== undefined && slot < this.size ? slot : undefined;
  }

  get(key: K): V | undefined {
    const slot = this.slotOf(key);
    return slot === undefined ? undefined : this.bySlot.get(slot);
  }

  has(key: K): boolean {
    return this.slotOf(key) !== undefined;
  }

  /** This map with `key` set to `value`; this version is left as it was. */
  set(key: K, value: V): PersistentMap<K, V> {
    const slot = this.slotOf(key);
    if (slot !== undefined)
      return new PersistentMap(this.index, this.bySlot.set(slot, value), this.size);
    // The newest version appends its key to the shared index; an older one, whose later slots
    // another version took, goes on with a copy of the part it sees.
    const index =
      this.index.keys.length === this.size
        ? this.index
        : {
            keys: this.index.keys.slice(0, this.size),
            slots: new Map(this.index.keys.slice(0, this.size).map((old, at) => [old, at])),
          };
    index.keys.push(key);
    index.slots.set(key, this.size);
    return new PersistentMap(index, this.bySlot.set(this.size, value), this.size + 1);
  }

  /**
   * The keys whose value is not the same object as in `previous`, an earlier version of this
   * map, in insertion order: the chunks both versions share are skipped whole.
   */
  changedSince(previous: PersistentMap<K, V>): K[] {
    return this.bySlot.changedSince(previous.bySlot).map((slot) => this.index.keys[slot] as K);
  }

  *entries(): MapIterator<[K, V]> {
    for (let slot = 0; slot < this.size; slot++) {
      yield [this.index.keys[slot] as K, this.bySlot.get(slot) as V];
    }
  }

  *keys(): MapIterator<K> {
    for (let slot = 0; slot < this.size; slot++) yield this.index.keys[slot] as K;
  }

  *values(): MapIterator<V> {
    for (let slot = 0; slot < this.size; slot++) yield this.bySlot.get(slot) as V;
  }

  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }

  forEach(callback: (value: V, key: K, map: ReadonlyMap<K, V>) => void, thisArg?: unknown): void {
    for (const [key, value] of this.entries()) callback.call(thisArg, value, key, this);
  }
}
