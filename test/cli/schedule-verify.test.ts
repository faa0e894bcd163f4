import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/program.ts';
import type { CliIo } from '../../src/cli/io.ts';

/** Runs `sortie verify` in-process at a fixed instant, capturing its output. */
async function verifyAt(directory: string, now: string): Promise<{ code: number; out: string }> {
  let out = '';
  const io: CliIo = {
    stdout: (text) => void (out += text),
    stderr: (text) => void (out += text),
    env: {},
    stdoutIsTty: false,
    stderrIsTty: false,
    now: () => Date.parse(now),
  };
  const code = await runCli(['verify', directory], io);
  return { code, out };
}

describe('sortie verify with schedules', () => {
  it("prints each schedule's next three fire times in its time zone, with the offset", async () => {
    // Saturday 2026-11-28, 10:07 in Chicago, 21:37 in Kolkata.
    expect(await verifyAt('test/fixtures/config/schedules', '2026-11-28T16:07:00Z')).toEqual({
      code: 0,
      out: [
        'schedule main.hcl:27:3 mission "report" (at 09:00, 17:30 on mon, fri, America/Chicago): next 2026-11-30 09:00 -06:00, 2026-11-30 17:30 -06:00, 2026-12-04 09:00 -06:00',
        'schedule main.hcl:34:3 mission "report" (cron "30 1 * * *", America/Chicago): next 2026-11-29 01:30 -06:00, 2026-11-30 01:30 -06:00, 2026-12-01 01:30 -06:00',
        'schedule main.hcl:53:3 mission "tick" (every 6h, Asia/Kolkata): next 2026-11-29 00:00 +05:30, 2026-11-29 06:00 +05:30, 2026-11-29 12:00 +05:30',
        'ok: 2 missions, 2 tasks, 1 agent, 1 model used (models.openai.gpt_4o_mini), 0 warnings',
        '',
      ].join('\n'),
    });
  });

  it('shows a DST change in the offsets of the times around it', async () => {
    const { out } = await verifyAt('test/fixtures/config/schedules', '2026-10-31T12:00:00Z');
    expect(out.split('\n')[1]).toBe(
      'schedule main.hcl:34:3 mission "report" (cron "30 1 * * *", America/Chicago): next 2026-11-01 01:30 -05:00, 2026-11-02 01:30 -06:00, 2026-11-03 01:30 -06:00',
    );
  });
});
