/**
 * Actor ids shortened to a column width so that what tells actors apart survives: parallel
 * items differ only in their item number, which a cut at the end or in the middle loses.
 */
import { parseActorId } from '../base/events.ts';
import { lineWidth, truncate } from './columns.ts';

const FORK_SUFFIX = '#fork';
/** The fewest columns a cut name keeps: one character and `…`. */
const SHORTEST_NAME = 2;

/** How many columns each name keeps: the longer one gives a column up first. */
function nameWidths(widths: readonly number[], available: number): number[] | undefined {
  const kept = [...widths];
  let excess = kept.reduce((sum, width) => sum + width, 0) - available;
  while (excess > 0) {
    const longest = kept.indexOf(Math.max(...kept));
    if ((kept[longest] ?? 0) <= SHORTEST_NAME) return undefined;
    kept[longest] = (kept[longest] ?? 0) - 1;
    excess -= 1;
  }
  return kept;
}

/**
 * `agent:forecast[2]/forecaster` in at most `width` columns: the task and agent names are cut
 * (`agent:foreca…[2]/forecas…`), the kind, the item number and a `#fork` never; an id of
 * another shape, or a width too small for that, is cut in the middle.
 */
export function shortActorId(id: string, width: number): string {
  if (lineWidth(id) <= width) return id;
  const suffix = id.endsWith(FORK_SUFFIX) ? FORK_SUFFIX : '';
  const parsed = parseActorId(id.slice(0, id.length - suffix.length));
  if (parsed === undefined || (parsed.kind !== 'commander' && parsed.kind !== 'agent')) {
    return truncate(id, width, 'middle');
  }
  const index = parsed.index === null ? '' : `[${parsed.index}]`;
  const names = parsed.agent === null ? [parsed.name] : [parsed.name, parsed.agent];
  const fixed = `${parsed.kind}:${index}${parsed.agent === null ? '' : '/'}${suffix}`;
  const widths = nameWidths(names.map(lineWidth), width - lineWidth(fixed));
  if (widths === undefined) return truncate(id, width, 'middle');
  const [task = '', agent] = names.map((name, at) => truncate(name, widths[at] ?? 0));
  return `${parsed.kind}:${task}${index}${agent === undefined ? '' : `/${agent}`}${suffix}`;
}
