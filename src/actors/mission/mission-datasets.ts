/** A mission's datasets at run start, and the store that reports their changes as events. */
import type { MissionConfig } from '../../config/config-types.ts';
import type { MissionJournal } from '../../journal/mission-journal.ts';
import { UsageError } from '../../base/errors.ts';
import type { EventBus } from '../../runtime/event-bus.ts';
import { actorId } from '../../base/events.ts';
import { formatProblem, validateItems } from '../../schema/index.ts';
import {
  DatasetStore,
  MAX_ITEM_PROBLEMS,
  type DatasetDeclaration,
  type DatasetWrite,
} from '../../tools/datasets/index.ts';

/**
 * Declared datasets with their first items: inline items (checked at load), or the bound list
 * input's value, defaulted and validated against the dataset's schema now (a mismatch is a
 * UsageError naming each item and path).
 */
export function datasetDeclarations(
  mission: MissionConfig,
  inputs: Record<string, unknown>,
): DatasetDeclaration[] {
  return [...mission.datasets.values()].map((dataset) => {
    const declaration: DatasetDeclaration = { name: dataset.name };
    if (dataset.description !== undefined) declaration.description = dataset.description;
    const schema = dataset.schema?.jsonSchema;
    if (schema !== undefined) declaration.schema = schema;
    if (dataset.bindTo === undefined) {
      if (dataset.items !== undefined) declaration.items = [...dataset.items];
      return declaration;
    }
    const bound = inputs[dataset.bindTo];
    const items = Array.isArray(bound) ? bound : [];
    declaration.items =
      schema === undefined ? [...items] : checkedItems(dataset.name, schema, items);
    return declaration;
  });
}

function checkedItems(name: string, schema: Record<string, unknown>, items: unknown[]): unknown[] {
  const checked = validateItems(schema, items, { applyDefaults: true, limit: MAX_ITEM_PROBLEMS });
  if (checked.problems.length > 0) {
    const problems = checked.problems.map(formatProblem).join('; ');
    throw new UsageError(`dataset "${name}" does not accept its bound input: ${problems}`);
  }
  return checked.values;
}

/** A dataset store that reports every accepted write as a `dataset.updated` event. */
export class EventedDatasetStore extends DatasetStore {
  constructor(
    declarations: readonly DatasetDeclaration[],
    private readonly bus: EventBus,
    private readonly mission: MissionConfig,
  ) {
    super(declarations);
  }

  override write(name: string, items: readonly unknown[], append: boolean): DatasetWrite {
    const written = super.write(name, items, append);
    if (written.ok) {
      // The store does not know which agent wrote: the event belongs to the mission.
      this.bus.emit({
        type: 'dataset.updated',
        actor: actorId.mission(this.mission.name),
        dataset: name,
        count: written.count,
        appended: append,
        items: [...items],
      });
    }
    return written;
  }

  /** Replays a journaled write of a resumed run (no event: the journal has it already). */
  restore(name: string, items: readonly unknown[], append: boolean): void {
    super.write(name, items, append);
  }
}

/** Resumed run: the datasets as the journaled writes left them. */
export function restoreDatasets(store: DatasetStore, journal: MissionJournal): void {
  for (const write of journal.datasetWrites) {
    if (store instanceof EventedDatasetStore)
      store.restore(write.dataset, write.items, write.appended);
    else store.write(write.dataset, write.items, write.appended);
  }
}
