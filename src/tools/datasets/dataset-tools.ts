import { defineTool, objectSchema } from '../define-tool.ts';
import type { AgentTool, ToolOutcome } from '../builtins/agent-tool.ts';
import { errorOutcome, okOutcome } from '../builtins/agent-tool.ts';
import type { ResultStore } from '../results/result-store.ts';
import type { DatasetStore, DatasetWrite } from './dataset-store.ts';

/** The most items `dataset_sample` returns. */
export const MAX_SAMPLE_ITEMS = 50;

function nameProperty(store: DatasetStore): Record<string, unknown> {
  const names = store.names();
  const description =
    names.length === 0 ? 'Dataset (this mission declares none)' : `Dataset: ${names.join(', ')}`;
  return { type: 'string', description };
}

function writeOutcome(name: string, write: DatasetWrite): ToolOutcome {
  if (!write.ok) {
    return errorOutcome(
      write.error,
      write.problems === undefined ? {} : { problems: write.problems },
    );
  }
  return okOutcome({ dataset: name, count: write.count });
}

function setDatasetTool(store: DatasetStore): AgentTool {
  return {
    definition: defineTool({
      name: 'set_dataset',
      description:
        'Replace the items of a declared dataset (or append to it). Items are validated against its schema.',
      parameters: objectSchema(['name', 'items'], {
        name: nameProperty(store),
        items: { type: 'array' },
        append: { type: 'boolean', default: false },
      }),
    }),
    async execute(args) {
      const name = args.name as string;
      return writeOutcome(name, store.write(name, args.items as unknown[], args.append === true));
    },
  };
}

function datasetSampleTool(store: DatasetStore): AgentTool {
  return {
    definition: defineTool({
      name: 'dataset_sample',
      description: 'The first items of a dataset (at most 50).',
      parameters: objectSchema(['name'], {
        name: nameProperty(store),
        count: { type: 'integer', minimum: 1, maximum: MAX_SAMPLE_ITEMS, default: 5 },
      }),
    }),
    async execute(args) {
      const name = args.name as string;
      if (!store.has(name)) return errorOutcome(store.undeclaredError(name));
      const items = store.items(name);
      const count = (args.count as number | undefined) ?? 5;
      return okOutcome({ dataset: name, total: items.length, items: items.slice(0, count) });
    },
  };
}

function datasetCountTool(store: DatasetStore): AgentTool {
  return {
    definition: defineTool({
      name: 'dataset_count',
      description: 'The number of items in a dataset.',
      parameters: objectSchema(['name'], { name: nameProperty(store) }),
    }),
    async execute(args) {
      const name = args.name as string;
      if (!store.has(name)) return errorOutcome(store.undeclaredError(name));
      return okOutcome({ dataset: name, count: store.items(name).length });
    },
  };
}

function resultToDatasetTool(store: DatasetStore, results: ResultStore): AgentTool {
  return {
    definition: defineTool({
      name: 'result_to_dataset',
      description:
        'Put a stored large array result (by its result id) into a declared dataset, replacing its items.',
      parameters: objectSchema(['id', 'dataset_name'], {
        id: { type: 'string', description: 'A result id such as result_1' },
        dataset_name: nameProperty(store),
      }),
    }),
    async execute(args) {
      const id = args.id as string;
      const name = args.dataset_name as string;
      const stored = await results.get(id);
      if (stored === undefined) return errorOutcome(`no stored result "${id}"`);
      if (stored.type !== 'array') {
        const kind = stored.type === 'object' ? 'an object' : 'text';
        return errorOutcome(
          `result "${id}" is ${kind}, not an array: only array results can become a dataset`,
        );
      }
      return writeOutcome(name, store.write(name, stored.value as unknown[], false));
    },
  };
}

/**
 * The dataset tools in offering order. Every agent of a mission gets them (the seed's
 * rule), also when the mission declares no dataset: then each names an undeclared dataset
 * and says so. `result_to_dataset` reads the run's stored large results.
 */
export function datasetToolsFor(store: DatasetStore, results: ResultStore): AgentTool[] {
  return [
    setDatasetTool(store),
    datasetSampleTool(store),
    datasetCountTool(store),
    resultToDatasetTool(store, results),
  ];
}
