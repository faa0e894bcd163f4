import { describe, expect, it } from 'vitest';
import { shortActorId } from '../../src/present/actor-text.ts';

describe('shortActorId', () => {
  it('leaves an id that fits as it is', () => {
    expect(shortActorId('agent:forecast[12]/forecaster', 29)).toBe('agent:forecast[12]/forecaster');
  });

  it('cuts the longer name first and keeps kind, item number and agent apart', () => {
    expect(shortActorId('agent:forecast[12]/forecaster', 27)).toBe('agent:forecast[12]/forecas…');
    expect(shortActorId('agent:forecast[12]/forecaster', 24)).toBe('agent:forec…[12]/foreca…');
    expect(shortActorId('commander:forecast[3]', 16)).toBe('commander:fo…[3]');
  });

  it('keeps the #fork of a question fork', () => {
    expect(shortActorId('agent:forecast[4]/forecaster#fork', 28)).toBe(
      'agent:forec…[4]/foreca…#fork',
    );
  });

  it('cuts other ids, and ids too long for the width, in the middle', () => {
    expect(shortActorId('mission:weather_report', 12)).toBe('missio…eport');
    expect(shortActorId('agent:forecast[12]/forecaster', 12)).toBe('agent:…aster');
  });
});
