/**
 * The names a distributed run uses in Redis: one BullMQ queue for every run's items, and per
 * run its event stream, its project manifest, the relay's cursor, each item try's events and
 * the control streams between the run process and its workers.
 */

/** The BullMQ queue every `sortie worker` takes items from. */
export const QUEUE_NAME = 'sortie-items';

/**
 * The field of an event stream entry: a JSON array of the events a worker sent at once (one
 * entry per batch rather than per event: far fewer commands, replies and stream ids).
 */
export const BATCH_FIELD = 'events';

/** A project file's content, by its SHA-256 (shared by every run that ships the same file). */
export function blobKey(hash: string): string {
  return `sortie:blob:${hash}`;
}

/** The keys of one run. */
export function runKeys(runId: string) {
  const base = `sortie:run:${runId}`;
  return {
    /** The stream of events workers send to the run process. */
    events: `${base}:events`,
    /** The project's manifest: relative path → content hash. */
    manifest: `${base}:project`,
    /** The last stream entry the run process has put on its bus. */
    cursor: `${base}:cursor`,
    /** Workers' requests to the run process: gate points, questions to the person. */
    requests: `${base}:requests`,
    /** The run process's messages to workers: replies, budget breaches, cancelled tries. */
    control: `${base}:control`,
    /** Requests settled (answered or withdrawn): a resumed run process skips them. */
    settled: `${base}:settled`,
    /** Every key of the run, for the clean-up at its end. */
    pattern: `${base}:*`,
    /** What every try of a task shares, by its content's hash. */
    share: (hash: string) => `${base}:share:${hash}`,
    /** One try of one item: its events, from which another worker continues it. */
    item: (task: string, index: number, attempt: number) =>
      `${base}:item:${task}:${index}:${attempt}`,
  };
}

/** The job of one try of one item: the same id when a resumed run asks for it again. */
export function jobIdOf(runId: string, task: string, index: number, attempt: number): string {
  return `${runId}/${task}/${index}/${attempt}`;
}

/**
 * Orders two relay positions (`ENTRY/N`, see the events' `relay`): by stream entry, then by the
 * event's place in it.
 */
export function compareRelays(left: string, right: string): number {
  const [leftEntry = '', leftIndex = '0'] = left.split('/');
  const [rightEntry = '', rightIndex = '0'] = right.split('/');
  return compareStreamIds(leftEntry, rightEntry) || Number(leftIndex) - Number(rightIndex);
}

/** Stream ids (`ms-seq`) in order: negative when `left` comes first. */
export function compareStreamIds(left: string, right: string): number {
  const [leftMs = 0, leftSeq = 0] = left.split('-').map(Number);
  const [rightMs = 0, rightSeq = 0] = right.split('-').map(Number);
  return leftMs !== rightMs ? leftMs - rightMs : leftSeq - rightSeq;
}
