/**
 * How long each task ran over all the sessions of a run, for `sortie show`: a task resumed
 * after a cancel or a crash ran in parts, and its `task.succeeded` counts only the last one.
 * A part runs from its `task.started` to the task's end event, or, when its session ended
 * first (a crash, a cancel), to that session's last journaled event. A task restored from the
 * journal (`restored`) did not run again: it keeps the duration it had.
 */
import type { MissionEvent } from '../base/events.ts';

/** Adds up tasks' parts one event at a time. */
export class TaskDurations {
  /** Time of the parts that ended, by `mission/task`. */
  private readonly ended = new Map<string, number>();
  /** When the running part of each task started (ms since the epoch). */
  private readonly running = new Map<string, number>();
  /** Tasks whose part in this session is a restore, not a run. */
  private readonly restored = new Set<string>();
  private lastTime = 0;

  /**
   * Reads one event of `mission`. For a task's end event, returns its whole time so far, or
   * undefined when the end is a restore's (the duration it had stands).
   */
  add(event: MissionEvent, mission: string): number | undefined {
    const time = Date.parse(event.time);
    let whole: number | undefined;
    switch (event.type) {
      case 'run.started':
      case 'run.forked':
        this.closeParts();
        break;
      case 'task.started': {
        const key = `${mission}/${event.task}`;
        if (event.restored === true) this.restored.add(key);
        else {
          this.restored.delete(key);
          this.running.set(key, time);
        }
        break;
      }
      case 'task.succeeded':
      case 'task.failed':
        whole = this.endPart(`${mission}/${event.task}`, event.durationMs);
        break;
      case 'task.cancelled': {
        const key = `${mission}/${event.task}`;
        whole = this.endPart(key, time - (this.running.get(key) ?? time));
        break;
      }
      default:
        break;
    }
    this.lastTime = time;
    return whole;
  }

  private endPart(key: string, partMs: number): number | undefined {
    this.running.delete(key);
    if (this.restored.delete(key)) return undefined;
    const whole = (this.ended.get(key) ?? 0) + Math.max(0, partMs);
    this.ended.set(key, whole);
    return whole;
  }

  /** A new session: the parts still running ended with the last event before it. */
  private closeParts(): void {
    for (const [key, start] of this.running)
      this.ended.set(key, (this.ended.get(key) ?? 0) + Math.max(0, this.lastTime - start));
    this.running.clear();
    this.restored.clear();
  }
}
