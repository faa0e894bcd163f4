import type { GatePoint } from './events.ts';

/**
 * Whether two gate points are the same hold: `gate.resumed` repeats its `gate.paused` point
 * (without identity), so whoever mirrors the gate matches them field by field.
 */
export function samePoint(left: GatePoint, right: GatePoint): boolean {
  return (
    left.kind === right.kind &&
    left.actor === right.actor &&
    left.tool === right.tool &&
    left.detail === right.detail
  );
}
