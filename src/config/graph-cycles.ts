/**
 * Cycle detection over a directed graph of names: one algorithm for the config checker (which
 * prints each cycle's path) and the task graph the runtime schedules (which refuses a cycle).
 */

/** Edges from each name to the names that must come after it. */
export type Successors = ReadonlyMap<string, readonly string[]>;

/**
 * One cycle per strongly connected component (Tarjan), starting at its first name in `order`,
 * e.g. ['a', 'b', 'c', 'a']; a name with an edge to itself is a cycle too. Cycles are sorted by
 * where their first name stands in `order`. Edges to names outside `order` are ignored.
 */
export function findCycles(order: readonly string[], edges: Successors): string[][] {
  const known = new Set(order);
  const successors = (node: string): string[] =>
    (edges.get(node) ?? []).filter((next) => known.has(next));
  const components = stronglyConnected(order, successors);
  const cycles: string[][] = [];
  for (const component of components) {
    const members = new Set(component);
    const start = order.find((name) => members.has(name));
    if (start === undefined) continue;
    const selfLoop = successors(start).includes(start);
    if (component.length === 1 && !selfLoop) continue;
    cycles.push(pathBack(start, members, successors));
  }
  return cycles.sort((a, b) => order.indexOf(a[0] ?? '') - order.indexOf(b[0] ?? ''));
}

/** Tarjan's strongly connected components, visiting names in `order`. */
function stronglyConnected(
  order: readonly string[],
  successors: (node: string) => string[],
): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node) ?? 0);
    stack.push(node);
    onStack.add(node);
    for (const next of successors(node)) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(next) ?? 0));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop();
        if (member === undefined) break;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      components.push(component);
    }
  };
  for (const name of order) if (!index.has(name)) visit(name);
  return components;
}

/** The shortest path from `start` back to itself inside one component (breadth-first). */
function pathBack(
  start: string,
  members: ReadonlySet<string>,
  successors: (node: string) => string[],
): string[] {
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift() as string;
    for (const next of successors(node)) {
      if (!members.has(next)) continue;
      if (next === start) {
        const path = [start];
        for (
          let step: string | undefined = node;
          step !== undefined && step !== start;
          step = previous.get(step)
        ) {
          path.splice(1, 0, step);
        }
        return [...path, start];
      }
      if (!previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  return [start, start];
}
