/**
 * A batch's working copy of a snapshot. The indices by actor id are persistent maps, so a
 * change replaces that entry's chunk and shares every other entry with the snapshot before:
 * a batch touching one actor copies that chunk's references per index, not the index.
 */
import type {
  ActorDetail,
  ActorNode,
  CostRow,
  CostTables,
  EventLine,
  ItemStats,
  RunHeader,
  TaskOutput,
  TuiState,
} from './state.ts';
import { AppendList } from './append-list.ts';
import { ItemVector } from './item-vector.ts';
import { PersistentMap } from './persistent-map.ts';
import { EMPTY_DETAIL } from './state.ts';

type CostTableName = 'byTask' | 'byActor' | 'byModel';
/** The fields a batch replaces whole: they are no index by actor id. */
type WholeField = 'currentMission' | 'chatAgent' | 'held' | 'questions' | 'warnedBudgets';

/** A map of the snapshot as a persistent one (a snapshot built elsewhere may hold a `Map`). */
function persistent<K, V>(map: ReadonlyMap<K, V>): PersistentMap<K, V> {
  return map instanceof PersistentMap ? (map as PersistentMap<K, V>) : PersistentMap.from(map);
}

/** A batch's working copy of a snapshot. */
export class StateDraft {
  private readonly owned = new WeakSet<object>();
  private readonly working: { -readonly [K in keyof TuiState]: TuiState[K] };

  constructor(base: TuiState) {
    this.working = { ...base };
  }

  /** The state as it stands (reducers read it); hand it out only when the batch is over. */
  get state(): TuiState {
    return this.working;
  }

  get header(): RunHeader {
    return this.working.header;
  }

  patchHeader(patch: Partial<RunHeader>): void {
    this.working.header = { ...this.working.header, ...patch };
  }

  /** Replaces one of the fields that are no index (the other setters keep those shared). */
  set<Field extends WholeField>(field: Field, value: TuiState[Field]): void {
    this.working[field] = value;
  }

  actor(id: string): ActorNode | undefined {
    return this.working.actors.get(id);
  }

  setActor(node: ActorNode): void {
    this.working.actors = persistent(this.working.actors).set(node.id, node);
  }

  childrenOf(parent: string): AppendList<string> {
    return this.working.children.get(parent) ?? AppendList.empty();
  }

  /** Appends in place to the parent's shared list: N children cost N steps, not N² copies. */
  addChild(parent: string, child: string): void {
    const siblings = this.childrenOf(parent).append(child);
    this.working.children = persistent(this.working.children).set(parent, siblings);
  }

  detail(id: string): ActorDetail {
    return this.working.details.get(id) ?? EMPTY_DETAIL;
  }

  patchDetail(id: string, patch: Partial<ActorDetail>): void {
    const detail = { ...this.detail(id), ...patch };
    this.working.details = persistent(this.working.details).set(id, detail);
  }

  output(task: string): TaskOutput | undefined {
    return this.working.outputs.get(task);
  }

  setOutput(output: TaskOutput): void {
    this.working.outputs = persistent(this.working.outputs).set(output.task, output);
  }

  /** A task's item stats; the vector is persistent, so setting one item copies no other. */
  itemStats(task: string): ItemVector<ItemStats> {
    return this.working.itemStats.get(task) ?? ItemVector.empty();
  }

  setItemStats(task: string, stats: ItemVector<ItemStats>): void {
    this.working.itemStats = persistent(this.working.itemStats).set(task, stats);
  }

  costRow(table: CostTableName, key: string): CostRow | undefined {
    return this.working.costs[table].get(key);
  }

  setCostRow(table: CostTableName, row: CostRow): void {
    const costs = this.ownCosts();
    costs[table] = persistent(costs[table]).set(row.key, row);
  }

  setCostTotal(row: CostRow): void {
    this.ownCosts().total = row;
  }

  appendLog(line: EventLine): void {
    const { items, length } = this.working.log;
    // Appending in place is safe only at the tip: older snapshots read up to their own length.
    const shared = items.length === length ? (items as EventLine[]) : items.slice(0, length);
    shared.push(line);
    this.working.log = { items: shared, length: length + 1 };
  }

  /** The batch's own copy of the cost tables, made on the first change. */
  private ownCosts(): { -readonly [K in keyof CostTables]: CostTables[K] } {
    const costs = this.working.costs;
    if (this.owned.has(costs)) return costs;
    const copy = { ...costs };
    this.owned.add(copy);
    this.working.costs = copy;
    return copy;
  }
}
