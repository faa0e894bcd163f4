import { describe, expect, it } from 'vitest';
import type { GatePoint } from '../../src/base/events.ts';
import { samePoint } from '../../src/base/gate-point.ts';

const held: GatePoint = { kind: 'tool', actor: 'agent:a', tool: 'read', detail: '{"path":"x"}' };

describe('samePoint', () => {
  it('matches on kind, actor, tool and detail; the system prompt is not compared', () => {
    expect(samePoint(held, { ...held, system: 'prompt' })).toBe(true);
    expect(samePoint(held, { ...held, kind: 'error' })).toBe(false);
    expect(samePoint(held, { ...held, actor: 'agent:b' })).toBe(false);
    expect(samePoint(held, { ...held, tool: 'write' })).toBe(false);
    expect(samePoint(held, { ...held, detail: '{"path":"y"}' })).toBe(false);
  });
});
