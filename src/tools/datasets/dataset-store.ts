import { formatProblem, validateItems, type ItemsValidation } from '../../schema/index.ts';

/** A dataset as the mission declares it. */
export interface DatasetDeclaration {
  name: string;
  description?: string;
  /** JSON Schema each item must match; absent means any item is accepted. */
  schema?: Record<string, unknown>;
  /** Inline or bound items known at run start (already validated by the loader). */
  items?: unknown[];
}

/** The outcome of replacing or extending a dataset. */
export type DatasetWrite =
  { ok: true; count: number } | { ok: false; error: string; problems?: string[] };

/** Reported after every accepted write, for the `dataset.updated` event. */
export type DatasetListener = (update: { name: string; count: number }) => void;

/** At most this many item problems are reported for one write. */
export const MAX_ITEM_PROBLEMS = 20;

interface DatasetState {
  declaration: DatasetDeclaration;
  items: unknown[];
  lockedBy?: string;
}

/**
 * The datasets of one mission run: declared names with optional item schemas, their
 * current items, and the lock a task takes when it starts iterating one.
 */
export class DatasetStore {
  private readonly datasets = new Map<string, DatasetState>();

  constructor(
    declarations: readonly DatasetDeclaration[],
    private readonly onUpdated?: DatasetListener,
  ) {
    for (const declaration of declarations) {
      this.datasets.set(declaration.name, { declaration, items: [...(declaration.items ?? [])] });
    }
  }

  /** Declared names, in declaration order. */
  names(): string[] {
    return [...this.datasets.keys()];
  }

  has(name: string): boolean {
    return this.datasets.has(name);
  }

  /** The declaration (description, schema) of a dataset. */
  declaration(name: string): DatasetDeclaration | undefined {
    return this.datasets.get(name)?.declaration;
  }

  /** The current items (not copied: callers must not modify them). */
  items(name: string): readonly unknown[] {
    return this.datasets.get(name)?.items ?? [];
  }

  /** The task iterating the dataset, once one has started. */
  lockedBy(name: string): string | undefined {
    return this.datasets.get(name)?.lockedBy;
  }

  /** Locks a dataset for the task that starts iterating it; the first locker is kept. */
  lock(name: string, taskName: string): void {
    const state = this.datasets.get(name);
    if (state !== undefined) state.lockedBy ??= taskName;
  }

  /**
   * The error text for an undeclared name, listing the declared ones. Tools cannot declare
   * a dataset (its schema and its iterating tasks come from the configuration), so with
   * none declared the model is told to keep the items in its answer.
   */
  undeclaredError(name: string): string {
    const names = this.names();
    if (names.length === 0) {
      return `dataset "${name}" is not declared: this mission declares no datasets, and tools cannot create one; give the items in your answer instead`;
    }
    return `dataset "${name}" is not declared; declared datasets: ${names.join(', ')}`;
  }

  /**
   * Replaces (or appends to) a dataset after validating every new item against its schema,
   * defaults applied first. Nothing changes unless every item is valid. Problems name the
   * item's index in `items` and the path inside it: `item 3: /name: must be string`.
   */
  write(name: string, items: readonly unknown[], append: boolean): DatasetWrite {
    const state = this.datasets.get(name);
    if (state === undefined) return { ok: false, error: this.undeclaredError(name) };
    if (state.lockedBy !== undefined) {
      return {
        ok: false,
        error: `dataset "${name}" is locked: task "${state.lockedBy}" is already iterating it`,
      };
    }
    const schema = state.declaration.schema;
    let accepted = [...items];
    if (schema !== undefined) {
      const checked = validateItems(schema, items, {
        applyDefaults: true,
        limit: MAX_ITEM_PROBLEMS,
      });
      if (checked.invalidItems > 0) return rejectedWrite(name, checked);
      accepted = checked.values;
    }
    state.items = append ? [...state.items, ...accepted] : accepted;
    this.onUpdated?.({ name, count: state.items.length });
    return { ok: true, count: state.items.length };
  }
}

/** A write refused because of its items: nothing changed, each problem names its item. */
function rejectedWrite(name: string, checked: ItemsValidation): DatasetWrite {
  const noun = checked.invalidItems === 1 ? 'item does' : 'items do';
  return {
    ok: false,
    error: `${checked.invalidItems} ${noun} not match the schema of dataset "${name}"; nothing was changed`,
    problems: checked.problems.map(formatProblem),
  };
}
