/**
 * Which served runs start when: at most `max_parallel` runs of one mission at once (the
 * reference runtime's rule, over every source: API, webhooks, schedules, resumes); more wait in
 * a bounded first-in-first-out queue per mission. Knows nothing of HTTP or of how a run runs:
 * `launch` starts one and settles when it has ended.
 */

/** Where a run request came from (printed, and decides what a full queue means). */
export type RunSource = 'api' | 'webhook' | 'schedule' | 'resume' | 'mcp';

/** A run to start: its id is chosen before it starts, so a queued run can be answered with it. */
export interface RunRequest {
  runId: string;
  mission: string;
  source: RunSource;
}

/** What became of a submitted request. */
export type Admission = 'started' | 'queued' | 'full' | 'stopped';

/** How the manager is set up. */
export interface RunManagerOptions<Request extends RunRequest> {
  /** The mission's `max_parallel`. */
  limitOf: (mission: string) => number;
  /** Requests one mission's queue holds at most. */
  queueLimit: number;
  /** Starts the run; the promise settles once it has ended (it never rejects). */
  launch: (request: Request) => Promise<void>;
}

/** The run manager of one server. */
export class RunManager<Request extends RunRequest> {
  private readonly running = new Map<string, Set<string>>();
  private readonly queues = new Map<string, Request[]>();
  private readonly ends = new Set<Promise<void>>();
  private accepting = true;

  constructor(private readonly options: RunManagerOptions<Request>) {}

  /**
   * Starts the run now, queues it, or refuses it (`full`, `stopped`). `beyondQueue` queues even
   * past the limit: runs resumed at start-up were already accepted once.
   */
  submit(request: Request, beyondQueue = false): Admission {
    if (!this.accepting) return 'stopped';
    const running = this.runningOf(request.mission);
    if (running.size < this.options.limitOf(request.mission)) {
      this.start(request);
      return 'started';
    }
    const queue = this.queues.get(request.mission) ?? [];
    if (!beyondQueue && queue.length >= this.options.queueLimit) return 'full';
    queue.push(request);
    this.queues.set(request.mission, queue);
    return 'queued';
  }

  /** The queued request with this run id, if it is still waiting. */
  queued(runId: string): Request | undefined {
    for (const queue of this.queues.values()) {
      const found = queue.find((request) => request.runId === runId);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  /** Every waiting request, oldest first per mission. */
  allQueued(): Request[] {
    return [...this.queues.values()].flat();
  }

  /** Takes a waiting request out of its queue (cancelled before it started); false if not there. */
  dequeue(runId: string): boolean {
    for (const queue of this.queues.values()) {
      const index = queue.findIndex((request) => request.runId === runId);
      if (index >= 0) {
        queue.splice(index, 1);
        return true;
      }
    }
    return false;
  }

  /** How many runs are running now. */
  runningCount(): number {
    let count = 0;
    for (const runs of this.running.values()) count += runs.size;
    return count;
  }

  /** Stops accepting and starting runs; returns the requests that were waiting (dropped). */
  stop(): Request[] {
    this.accepting = false;
    const dropped = this.allQueued();
    this.queues.clear();
    return dropped;
  }

  /** Settles once every started run has ended. */
  async idle(): Promise<void> {
    while (this.ends.size > 0) await Promise.all([...this.ends]);
  }

  private runningOf(mission: string): Set<string> {
    let runs = this.running.get(mission);
    if (runs === undefined) {
      runs = new Set();
      this.running.set(mission, runs);
    }
    return runs;
  }

  private start(request: Request): void {
    const running = this.runningOf(request.mission);
    running.add(request.runId);
    const ended = this.options.launch(request).then(() => {
      running.delete(request.runId);
      this.ends.delete(ended);
      this.startNext(request.mission);
    });
    this.ends.add(ended);
  }

  private startNext(mission: string): void {
    if (!this.accepting) return;
    const next = this.queues.get(mission)?.shift();
    if (next !== undefined) this.start(next);
  }
}
