import { describe, expect, it } from 'vitest';
import { actorId, isJournaled, parseActorId, type MissionEvent } from '../../src/base/events.ts';

describe('actorId', () => {
  it('builds the stable ids the TUI and breakpoints use', () => {
    expect(actorId.run()).toBe('run');
    expect(actorId.mission('research')).toBe('mission:research');
    expect(actorId.task('analyze')).toBe('task:analyze');
    expect(actorId.commander('analyze')).toBe('commander:analyze');
    expect(actorId.commander('analyze', 3)).toBe('commander:analyze[3]');
    expect(actorId.commander('analyze', 0)).toBe('commander:analyze[0]');
    expect(actorId.agent('analyze', 'researcher', 3)).toBe('agent:analyze[3]/researcher');
    expect(actorId.agent('analyze', 'researcher')).toBe('agent:analyze/researcher');
    expect(actorId.cursor('analyze')).toBe('cursor:analyze');
    expect(actorId.fork('commander:analyze[3]')).toBe('commander:analyze[3]#fork');
  });
});

describe('parseActorId', () => {
  it('takes every kind of id apart', () => {
    expect(parseActorId('run')).toEqual({ kind: 'run', name: '', index: null, agent: null });
    expect(parseActorId('mission:research')).toEqual({
      kind: 'mission',
      name: 'research',
      index: null,
      agent: null,
    });
    expect(parseActorId('commander:analyze[3]')).toEqual({
      kind: 'commander',
      name: 'analyze',
      index: 3,
      agent: null,
    });
    expect(parseActorId('agent:analyze[3]/researcher')).toEqual({
      kind: 'agent',
      name: 'analyze',
      index: 3,
      agent: 'researcher',
    });
    expect(parseActorId('agent:analyze/writer')).toEqual({
      kind: 'agent',
      name: 'analyze',
      index: null,
      agent: 'writer',
    });
  });

  it('rejects ids actorId never makes', () => {
    expect(parseActorId('agent:analyze')).toBeUndefined();
    expect(parseActorId('commander:analyze/researcher')).toBeUndefined();
    expect(parseActorId('task:analyze[2]')).toBeUndefined();
    expect(parseActorId('robot:x')).toBeUndefined();
    expect(parseActorId('commander:')).toBeUndefined();
    expect(parseActorId('commander:analyze#fork')).toBeUndefined();
  });
});

describe('isJournaled', () => {
  const base = { seq: 1, time: '2026-01-01T00:00:00.000Z', runId: 'r1', actor: 'commander:a' };

  it('keeps deltas out of the journal and everything else in', () => {
    const delta: MissionEvent = { ...base, type: 'model.delta', requestId: 'q1', text: 'hi' };
    const warning: MissionEvent = { ...base, type: 'warning', code: 'x', message: 'y' };
    expect(isJournaled(delta)).toBe(false);
    expect(isJournaled(warning)).toBe(true);
  });
});
