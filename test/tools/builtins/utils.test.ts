import { describe, expect, it } from 'vitest';
import { createCurrentTimeTool, isoTimeInZone } from '../../../src/tools/builtins/current-time.ts';
import { sleepTool } from '../../../src/tools/builtins/sleep-tool.ts';
import { callTool, parsed } from './call-tool.ts';

const instant = new Date('2026-07-14T09:30:05.678Z');

describe('builtins_utils_current_time', () => {
  const tool = createCurrentTimeTool(() => instant);

  it('defaults to UTC', async () => {
    expect(await callTool(tool, {})).toEqual({
      content: '{"status":"ok","time":"2026-07-14T09:30:05+00:00","timezone":"UTC"}',
      isError: false,
    });
  });

  it('answers in the requested IANA zone with its offset', async () => {
    expect(parsed(await callTool(tool, { timezone: 'Europe/Paris' }))).toEqual({
      status: 'ok',
      time: '2026-07-14T11:30:05+02:00',
      timezone: 'Europe/Paris',
    });
    expect(isoTimeInZone(instant, 'America/St_Johns')).toBe('2026-07-14T07:00:05-02:30');
    expect(isoTimeInZone(new Date('2026-01-01T00:00:00Z'), 'Asia/Kathmandu')).toBe(
      '2026-01-01T05:45:00+05:45',
    );
  });

  it('rejects an unknown zone with an error result', async () => {
    expect(await callTool(tool, { timezone: 'Mars/Olympus' })).toEqual({
      content:
        '{"status":"error","error":"unknown time zone \\"Mars/Olympus\\": use an IANA name such as UTC, Europe/Paris or America/New_York"}',
      isError: true,
    });
  });
});

describe('builtins_utils_sleep', () => {
  it('sleeps and reports the seconds slept', async () => {
    expect(await callTool(sleepTool, { seconds: 0.01 })).toEqual({
      content: '{"status":"ok","slept_seconds":0.01}',
      isError: false,
    });
  });

  it('rejects 0 and more than 300 seconds through its schema', async () => {
    expect(parsed(await callTool(sleepTool, { seconds: 0 }))).toEqual({
      status: 'error',
      problems: ['/seconds: must be > 0'],
    });
    expect(parsed(await callTool(sleepTool, { seconds: 301 }))).toEqual({
      status: 'error',
      problems: ['/seconds: must be <= 300'],
    });
  });

  it('stops early when the signal aborts', async () => {
    const controller = new AbortController();
    const pending = callTool(sleepTool, { seconds: 300 }, { signal: controller.signal });
    controller.abort();
    expect(await pending).toEqual({
      content: '{"status":"error","error":"sleep of 300 s was interrupted"}',
      isError: true,
    });
  });
});
