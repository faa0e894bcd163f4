/** What a task's work hands back to its task machine: plain data, never an actor. */

/** One item of an iterated task. */
export interface TaskItemRecord {
  index: number;
  itemId: string;
  status: 'succeeded' | 'failed';
  output?: unknown;
  error?: string;
}

/** What a task's work produced. */
export interface TaskOutcome {
  status: 'succeeded' | 'failed';
  summary: string;
  output?: unknown;
  /** The chosen route key; null for `none`, no router, or parallel iterations. */
  route: string | null;
  missionInputs: Record<string, unknown> | null;
  items?: TaskItemRecord[];
  error?: string;
}

/** A failed outcome with its reason. */
export function failedOutcome(error: string, extra: Partial<TaskOutcome> = {}): TaskOutcome {
  return { status: 'failed', summary: '', route: null, missionInputs: null, ...extra, error };
}
