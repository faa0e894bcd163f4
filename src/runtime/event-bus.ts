/**
 * The runtime's event bus: stamps events with seq, time and run id, redacts them, and hands
 * them to subscribers synchronously and in order. A subscriber can never break the run.
 */
import type { EventInput, MissionEvent } from '../base/events.ts';

/**
 * Receives every event, in `seq` order. `ignoredTypes`: event types the listener does nothing
 * with (the journal and `model.delta`); the bus does not call it for them.
 */
export type EventListener = ((event: MissionEvent) => void) & {
  readonly ignoredTypes?: ReadonlySet<MissionEvent['type']>;
};

/** Called when a subscriber throws; the run goes on. */
export type SubscriberErrorHandler = (
  error: unknown,
  event: MissionEvent,
  listener: EventListener,
) => void;

export interface EventBusOptions {
  runId: string;
  /** Injectable for tests; defaults to the system clock. */
  now?: () => Date;
  /** Applied to every event before any subscriber sees it (secrets, protected inputs). */
  redact?: (event: MissionEvent) => MissionEvent;
  /** Reports each subscriber's first error; later errors of the same subscriber are dropped. */
  onSubscriberError?: SubscriberErrorHandler;
  /** The last seq already used, when a resumed run continues its journal. Default 0. */
  lastSeq?: number;
}

/** Publishes `MissionEvent`s to subscribers. */
export class EventBus {
  readonly runId: string;
  private seq: number;
  private readonly now: (() => Date) | undefined;
  /** The system clock's last millisecond and its ISO text: events come many per millisecond. */
  private clockMs = -1;
  private clockText = '';
  private readonly redact: ((event: MissionEvent) => MissionEvent) | undefined;
  private readonly onSubscriberError: SubscriberErrorHandler | undefined;
  private listeners: EventListener[] = [];
  /** The listeners that take each event type, made on first use; reset by (un)subscribing. */
  private listenersByType = new Map<string, EventListener[]>();
  private readonly failedListeners = new WeakSet<EventListener>();
  /** Events emitted by a subscriber while delivery is under way wait here, so order holds. */
  private readonly pending: MissionEvent[] = [];
  private delivering = false;

  constructor(options: EventBusOptions) {
    this.runId = options.runId;
    this.seq = options.lastSeq ?? 0;
    this.now = options.now;
    this.redact = options.redact;
    this.onSubscriberError = options.onSubscriberError;
  }

  /** The seq of the last event emitted (0 before the first). */
  get lastSeq(): number {
    return this.seq;
  }

  /** Stamps, redacts and delivers an event; returns the event as subscribers see it. */
  emit(input: EventInput): MissionEvent {
    this.seq += 1;
    const stamped = {
      seq: this.seq,
      time: this.now === undefined ? this.systemTime() : this.now().toISOString(),
      runId: this.runId,
      ...input,
    } as MissionEvent;
    const event = this.redact === undefined ? stamped : this.redact(stamped);
    if (this.delivering) {
      this.pending.push(event);
    } else {
      this.delivering = true;
      try {
        this.deliverAll(event);
        // Events emitted by subscribers meanwhile, in order.
        for (let next = this.pending.shift(); next !== undefined; next = this.pending.shift()) {
          this.deliverAll(next);
        }
      } finally {
        this.delivering = false;
      }
    }
    return event;
  }

  private systemTime(): string {
    const ms = Date.now();
    if (ms !== this.clockMs) {
      this.clockMs = ms;
      this.clockText = new Date(ms).toISOString();
    }
    return this.clockText;
  }

  /** Adds a listener; returns the function that removes it. */
  subscribe(listener: EventListener): () => void {
    this.listeners = [...this.listeners, listener];
    this.listenersByType = new Map();
    return () => {
      this.listeners = this.listeners.filter((candidate) => candidate !== listener);
      this.listenersByType = new Map();
    };
  }

  private deliverAll(event: MissionEvent): void {
    // A snapshot: (un)subscribing during delivery takes effect from the next event.
    const listeners = this.listenersFor(event.type);
    for (let index = 0; index < listeners.length; index++) this.deliver(listeners[index]!, event);
  }

  private listenersFor(type: string): EventListener[] {
    let listeners = this.listenersByType.get(type);
    if (listeners === undefined) {
      listeners = this.listeners.filter(
        (listener) => listener.ignoredTypes?.has(type as MissionEvent['type']) !== true,
      );
      this.listenersByType.set(type, listeners);
    }
    return listeners;
  }

  private deliver(listener: EventListener, event: MissionEvent): void {
    try {
      listener(event);
    } catch (error) {
      if (this.failedListeners.has(listener)) return;
      this.failedListeners.add(listener);
      try {
        this.onSubscriberError?.(error, event, listener);
      } catch {
        // The error reporter itself failed: there is nowhere left to report to.
      }
    }
  }
}
