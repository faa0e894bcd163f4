import type { Span } from './ast.ts';
import { errorAt, warningAt, type DecodeContext } from './context.ts';
import type { TaskDraft } from './decode-task.ts';
import { findCycles } from './graph-cycles.ts';

/** Checks the task graph of one mission (config.md "Validation"); marks dynamic tasks. */
export function checkTaskGraph(
  drafts: readonly TaskDraft[],
  missionContext: DecodeContext,
  missionSpan: Span,
): void {
  const byName = new Map(drafts.map((draft) => [draft.task.name, draft]));
  for (const draft of drafts) checkTaskShape(draft);
  const dynamic = new Set<string>();
  for (const draft of drafts) {
    for (const route of draft.routes)
      if (route.target.kind === 'task') dynamic.add(route.target.name);
    for (const target of draft.sendTo) dynamic.add(target.name);
  }
  for (const draft of drafts) {
    const { task, context } = draft;
    task.dynamic = dynamic.has(task.name);
    if (task.dynamic && draft.dependsOn.length > 0 && draft.dependsOnSpan) {
      errorAt(
        context,
        draft.dependsOnSpan,
        `task "${task.name}" is activated by a route or send_to and cannot have depends_on`,
      );
    }
    for (const entry of draft.dependsOn) {
      if (entry.name !== task.name && dynamic.has(entry.name)) {
        errorAt(
          context,
          entry.span,
          `task "${task.name}" cannot depend on "${entry.name}": it only runs when a route or send_to activates it`,
        );
      }
    }
  }
  const cycles = findCycles(
    drafts.map((draft) => draft.task.name),
    successors(drafts),
  );
  for (const cycle of cycles) {
    const first = byName.get(cycle[0] ?? '');
    if (first) {
      errorAt(first.context, first.labelSpan, `dependency cycle: ${cycle.join(' → ')}`);
    }
  }
  const startable = drafts.some(
    (draft) =>
      !draft.task.dynamic && draft.dependsOn.every((entry) => entry.name === draft.task.name),
  );
  if (drafts.length > 0 && !startable) {
    errorAt(
      missionContext,
      missionSpan,
      'no task can start: every task depends on another task or is only activated by a route or send_to',
    );
  }
  warnImpliedDependencies(drafts, byName);
}

function checkTaskShape(draft: TaskDraft): void {
  const { task, context } = draft;
  for (const entry of draft.dependsOn) {
    if (entry.name === task.name)
      errorAt(context, entry.span, `task "${task.name}" depends on itself`);
  }
  if (draft.routerSpan && draft.sendToSpan) {
    errorAt(context, draft.sendToSpan, 'a task cannot have both router and send_to');
  }
  if (draft.routerSpan && task.iterator?.parallel) {
    errorAt(context, draft.routerSpan, 'a parallel iterated task cannot have a router');
  }
}

/** Edges in execution order: dependency → dependent, task → route or send_to target. */
function successors(drafts: readonly TaskDraft[]): Map<string, string[]> {
  const edges = new Map<string, string[]>(drafts.map((draft) => [draft.task.name, []]));
  const add = (from: string, to: string): void => {
    const list = edges.get(from);
    if (list && edges.has(to) && !list.includes(to)) list.push(to);
  };
  for (const draft of drafts) {
    for (const entry of draft.dependsOn)
      if (entry.name !== draft.task.name) add(entry.name, draft.task.name);
    for (const route of draft.routes)
      if (route.target.kind === 'task') add(draft.task.name, route.target.name);
    for (const target of draft.sendTo) add(draft.task.name, target.name);
  }
  return edges;
}

/** A `depends_on` entry already reached through another entry is redundant: a warning. */
function warnImpliedDependencies(
  drafts: readonly TaskDraft[],
  byName: ReadonlyMap<string, TaskDraft>,
): void {
  const ancestors = (name: string): Set<string> => {
    const seen = new Set<string>();
    const pending = [name];
    while (pending.length > 0) {
      const current = byName.get(pending.pop() as string);
      for (const entry of current?.dependsOn ?? []) {
        if (!seen.has(entry.name)) {
          seen.add(entry.name);
          pending.push(entry.name);
        }
      }
    }
    return seen;
  };
  for (const draft of drafts) {
    for (const entry of draft.dependsOn) {
      // Inside a cycle everything implies everything; the cycle error says what matters.
      const through = draft.dependsOn.find((other) => {
        if (other.name === entry.name || other.name === draft.task.name) return false;
        const reached = ancestors(other.name);
        return reached.has(entry.name) && !reached.has(draft.task.name);
      });
      if (through && entry.name !== draft.task.name) {
        warningAt(
          draft.context,
          entry.span,
          `depends_on "${entry.name}" is already implied through "${through.name}"`,
        );
      }
    }
  }
}
