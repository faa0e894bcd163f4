/**
 * `sortie fork`: where a run may be forked and the journal a fork starts from. A fork's journal
 * is its parent's events up to the fork point (same seq, time and content, the run id made the
 * fork's), the point itself maybe edited, then a `run.forked` event; the fork then resumes from
 * it by the rules of `sortie resume`.
 */
import { UsageError } from '../base/errors.ts';
import {
  parseActorId,
  type EventOf,
  type ForkPointKind,
  type MissionEvent,
} from '../base/events.ts';

/** An event a run can be forked at. */
export type ForkPoint =
  EventOf<'model.response'> | EventOf<'tool.completed'> | EventOf<'mission.started'>;

/** How many valid points before and after a refused seq the message names. */
const NEAREST = 2;

/**
 * Whether a run can be forked at this event: a commander's or agent's reply (not one to an MCP
 * server's sampling request) or tool result, or a mission's start.
 */
export function isForkPoint(event: MissionEvent): event is ForkPoint {
  if (event.type === 'mission.started') return true;
  if (event.type !== 'model.response' && event.type !== 'tool.completed') return false;
  if (event.type === 'model.response' && event.sampling === true) return false;
  // A question fork (`actor#fork`) is not resumed from the journal: it cannot be forked at.
  const kind = parseActorId(event.actor)?.kind;
  return kind === 'commander' || kind === 'agent';
}

/** The event at `seq`; a usage error naming the nearest valid points when it is not one. */
export function forkPointAt(
  events: readonly MissionEvent[],
  seq: number,
  runId: string,
): ForkPoint {
  const event = events.find((candidate) => candidate.seq === seq);
  if (event !== undefined && isForkPoint(event)) return event;
  const points = events.filter(isForkPoint);
  const before = points.filter((point) => point.seq < seq).slice(-NEAREST);
  const after = points.filter((point) => point.seq > seq).slice(0, NEAREST);
  const nearest = [...before, ...after].map(describeForkPoint);
  const what =
    event === undefined
      ? `run ${runId} has no event ${seq} (its events are 1–${events.at(-1)?.seq ?? 0})`
      : `event ${seq} of run ${runId} is ${event.type} (${event.actor})${samplingNote(event)}`;
  throw new UsageError(
    `${what}; a fork starts at a model response, a tool result or a mission's start`,
    nearest.length === 0 ? undefined : `the nearest are ${nearest.join(', ')}`,
  );
}

/** Why a model response is refused although the message names model responses. */
function samplingNote(event: MissionEvent): string {
  return event.type === 'model.response' && event.sampling === true
    ? ", a reply to an MCP server's sampling request"
    : '';
}

/** `13 (model.response of commander:greet)`. */
export function describeForkPoint(point: ForkPoint): string {
  return `${point.seq} (${point.type} of ${point.actor})`;
}

/** What a fork is made of. */
export interface ForkSpec {
  parentRunId: string;
  runId: string;
  point: ForkPoint;
  /** The fork point as edited; undefined keeps it as it was. */
  edited?: ForkPoint;
  /** The time of the `run.forked` event. */
  now?: Date;
}

/**
 * The fork's journal. A fork at a tool result or a mission's start keeps the events up to the
 * point, the point included (edited). A fork at a model response keeps the events before it:
 * its actor sends that request again on resume and gets the reply (edited) from `run.forked`.
 */
export function forkEvents(parentEvents: readonly MissionEvent[], spec: ForkSpec): MissionEvent[] {
  const { point, runId } = spec;
  const kept = parentEvents.filter((event) => event.seq < point.seq);
  const atPoint = spec.edited ?? point;
  if (point.type !== 'model.response') kept.push(atPoint);
  const events: MissionEvent[] = kept.map((event) => ({ ...event, runId }));
  const forked: EventOf<'run.forked'> = {
    seq: (kept.at(-1)?.seq ?? 0) + 1,
    time: (spec.now ?? new Date()).toISOString(),
    runId,
    actor: 'run',
    type: 'run.forked',
    parentRunId: spec.parentRunId,
    atSeq: point.seq,
    at: point.type satisfies ForkPointKind,
    edited: spec.edited !== undefined,
    ...(atPoint.type === 'model.response'
      ? {
          response: {
            actor: atPoint.actor,
            message: atPoint.message,
            usage: atPoint.usage,
            stopReason: atPoint.stopReason,
          },
        }
      : {}),
  };
  events.push(forked);
  return events;
}
