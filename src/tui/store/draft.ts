/**
 * Copy-on-write over a published snapshot: the first change to a collection in a batch copies
 * it, later changes in the same batch mutate that copy. A batch of 500 events touching one
 * actor therefore copies the 1,000-entry actor index once, not 500 times, and everything the
 * batch did not touch stays identical to the previous snapshot.
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
import { ItemVector } from './item-vector.ts';
import { EMPTY_DETAIL } from './state.ts';

type CostTableName = 'byTask' | 'byActor' | 'byModel';

/** A batch's working copy of a snapshot. */
export class StateDraft {
  private readonly owned = new WeakSet<object>();
  private readonly working: { -readonly [K in keyof TuiState]: TuiState[K] };

  constructor(base: TuiState) {
    this.working = { ...base };
  }

  /** The state as it stands; hand it out only when the batch is over. */
  get state(): TuiState {
    return this.working;
  }

  get header(): RunHeader {
    return this.working.header;
  }

  patchHeader(patch: Partial<RunHeader>): void {
    this.working.header = { ...this.working.header, ...patch };
  }

  get currentMission(): string | null {
    return this.working.currentMission;
  }

  setCurrentMission(mission: string): void {
    this.working.currentMission = mission;
  }

  actor(id: string): ActorNode | undefined {
    return this.working.actors.get(id);
  }

  setActor(node: ActorNode): void {
    this.working.actors = this.own(this.working.actors);
    (this.working.actors as Map<string, ActorNode>).set(node.id, node);
  }

  childrenOf(parent: string): readonly string[] {
    return this.working.children.get(parent) ?? [];
  }

  addChild(parent: string, child: string): void {
    this.working.children = this.own(this.working.children);
    const siblings = this.working.children.get(parent) ?? [];
    (this.working.children as Map<string, readonly string[]>).set(parent, [...siblings, child]);
  }

  detail(id: string): ActorDetail {
    return this.working.details.get(id) ?? EMPTY_DETAIL;
  }

  patchDetail(id: string, patch: Partial<ActorDetail>): void {
    this.working.details = this.own(this.working.details);
    (this.working.details as Map<string, ActorDetail>).set(id, { ...this.detail(id), ...patch });
  }

  output(task: string): TaskOutput | undefined {
    return this.working.outputs.get(task);
  }

  setOutput(output: TaskOutput): void {
    this.working.outputs = this.own(this.working.outputs);
    (this.working.outputs as Map<string, TaskOutput>).set(output.task, output);
  }

  /** A task's item stats; the vector is persistent, so setting one item copies no other. */
  itemStats(task: string): ItemVector<ItemStats> {
    return this.working.itemStats.get(task) ?? ItemVector.empty();
  }

  setItemStats(task: string, stats: ItemVector<ItemStats>): void {
    this.working.itemStats = this.own(this.working.itemStats);
    (this.working.itemStats as Map<string, ItemVector<ItemStats>>).set(task, stats);
  }

  costRow(table: CostTableName, key: string): CostRow | undefined {
    return this.working.costs[table].get(key);
  }

  setCostRow(table: CostTableName, row: CostRow): void {
    const costs = this.ownObject(this.working.costs);
    this.working.costs = costs;
    costs[table] = this.own(costs[table]);
    (costs[table] as Map<string, CostRow>).set(row.key, row);
  }

  setCostTotal(row: CostRow): void {
    const costs = this.ownObject(this.working.costs);
    this.working.costs = costs;
    costs.total = row;
  }

  appendLog(line: EventLine): void {
    const { items, length } = this.working.log;
    // Appending in place is safe only at the tip: older snapshots read up to their own length.
    const shared = items.length === length ? (items as EventLine[]) : items.slice(0, length);
    shared.push(line);
    this.working.log = { items: shared, length: length + 1 };
  }

  get held(): TuiState['held'] {
    return this.working.held;
  }

  setHeld(held: TuiState['held']): void {
    this.working.held = held;
  }

  get questions(): TuiState['questions'] {
    return this.working.questions;
  }

  setQuestions(questions: TuiState['questions']): void {
    this.working.questions = questions;
  }

  get warnedBudgets(): TuiState['warnedBudgets'] {
    return this.working.warnedBudgets;
  }

  setWarnedBudgets(warnedBudgets: TuiState['warnedBudgets']): void {
    this.working.warnedBudgets = warnedBudgets;
  }

  private own<T extends ReadonlyMap<unknown, unknown>>(map: T): T {
    if (this.owned.has(map)) return map;
    const copy = new Map(map) as unknown as T;
    this.owned.add(copy);
    return copy;
  }

  private ownObject(costs: CostTables): { -readonly [K in keyof CostTables]: CostTables[K] } {
    if (this.owned.has(costs)) return costs;
    const copy = { ...costs };
    this.owned.add(copy);
    return copy;
  }
}
