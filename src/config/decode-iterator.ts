import type { Block } from './ast.ts';
import { checkBody, expectNoLabels } from './body.ts';
import { errorAt, within, type DecodeContext } from './context.ts';
import { resolveName } from './references.ts';
import type { IteratorConfig } from './config-types.ts';
import { readBool, readNumber } from './values.ts';

/** Iterator defaults (config.md). */
export const ITERATOR_DEFAULTS = {
  parallel: false,
  concurrencyLimit: 5,
  startDelay: 0,
  smoketest: false,
  maxRetries: 0,
};

/** Decodes a task's `iterator { dataset, parallel, ... }` block. */
export function decodeIterator(
  block: Block,
  context: DecodeContext,
  datasets: ReadonlySet<string>,
): IteratorConfig | undefined {
  expectNoLabels(block, context);
  const inner = within(context, 'iterator');
  const body = checkBody(
    block.body,
    {
      attributes: [
        'dataset',
        'parallel',
        'concurrency_limit',
        'start_delay',
        'smoketest',
        'max_retries',
      ],
      required: ['dataset'],
      lenient: { what: 'iterators' },
    },
    inner,
    block.typeSpan,
  );
  const datasetAttribute = body.attributes.get('dataset');
  const dataset =
    datasetAttribute &&
    resolveName(
      datasetAttribute.value,
      { namespace: 'datasets', kind: 'dataset', names: datasets, where: 'iterator' },
      inner,
    );
  const parallel = readBool(body.attributes.get('parallel'), inner) ?? ITERATOR_DEFAULTS.parallel;
  const iterator: IteratorConfig = { dataset: dataset ?? '', ...ITERATOR_DEFAULTS, parallel };
  for (const name of ['concurrency_limit', 'start_delay', 'smoketest']) {
    const attribute = body.attributes.get(name);
    if (attribute && !parallel) {
      errorAt(inner, attribute.nameSpan, `${name} needs parallel = true`);
    }
  }
  const number = (name: string, min: number, fallback: number): number =>
    readNumber(body.attributes.get(name), inner, { integer: true, min }) ?? fallback;
  iterator.concurrencyLimit = number('concurrency_limit', 1, iterator.concurrencyLimit);
  iterator.startDelay = number('start_delay', 0, iterator.startDelay);
  iterator.smoketest = readBool(body.attributes.get('smoketest'), inner) ?? iterator.smoketest;
  iterator.maxRetries = number('max_retries', 0, iterator.maxRetries);
  return dataset === undefined ? undefined : iterator;
}
