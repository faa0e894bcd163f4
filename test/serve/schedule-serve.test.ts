import { EventEmitter } from 'node:events';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { serveCommand } from '../../src/cli/serve-command.ts';
import type { CliIo } from '../../src/cli/io.ts';
import type { ScriptedModelServer } from '../../src/testing/index.ts';
import { startServedModel } from '../e2e/serve-harness.ts';
import { ManualClock } from './schedule-clock.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';
import { modelPreamble } from '../helpers/model-preamble.ts';

/** `greet` fires every 15 minutes with name = "Ada"; its commander's script is the harness's. */
const PROJECT = `${modelPreamble()}mission "greet" {
  commander {
    model = models.main.gpt_4o_mini
  }
  inputs = {
    name = string("Who to greet", true)
  }
  schedule {
    every    = "15m"
    timezone = "UTC"
    inputs   = { name = "Ada" }
  }
  task "hello" {
    objective = "Greet \${inputs.name} 1 times"
    output = {
      text = string("The greeting", true)
    }
  }
}
`;

/** Output lines as they come, and a wait for the first line matching a pattern. */
function lineLog(): { io: CliIo; lines: string[]; next(pattern: RegExp): Promise<string> } {
  const lines: string[] = [];
  const waiting: Array<{ pattern: RegExp; resolve: (line: string) => void }> = [];
  const write = (text: string): void => {
    for (const line of text.split('\n').filter((part) => part !== '')) {
      lines.push(line);
      for (const waiter of waiting.filter((candidate) => candidate.pattern.test(line))) {
        waiting.splice(waiting.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    }
  };
  const io = { stdout: write, stderr: write, env: {}, stdoutIsTty: false, stderrIsTty: false };
  return {
    io,
    lines,
    next: (pattern) => {
      const seen = lines.find((line) => pattern.test(line));
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve) => waiting.push({ pattern, resolve }));
    },
  };
}

let cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

describe('sortie serve with schedules', () => {
  it('starts a run when a schedule fires, with its inputs, and stops the schedules on SIGTERM', async () => {
    const model: ScriptedModelServer = await startServedModel();
    cleanup.push(() => model.close());
    const dir = await temporaryDirectory('schedule-serve');
    await mkdir(join(dir, 'project'));
    await writeFile(join(dir, 'project', 'main.hcl'), PROJECT);
    const { io, lines, next } = lineLog();
    io.env = { SORTIE_HOME: join(dir, 'home') };
    const signals = new EventEmitter();
    const clock = new ManualClock('2026-11-28T10:07:00Z');
    const served = serveCommand(
      {
        directory: 'project',
        flags: {
          port: '0',
          host: '127.0.0.1',
          var: ['api_key=k-1', `base_url=${model.baseUrl('openai')}`],
          stateDir: join(dir, 'state'),
          grace: '5',
          resume: false,
          queueLimit: '10',
        },
      },
      io,
      { cwd: dir, signals, clock },
    );
    expect(await next(/^schedule of mission/)).toBe(
      'schedule of mission "greet" (every 15m, main.hcl:18:3): next 2026-11-28 10:15 +00:00; 2026-11-28 10:00 +00:00 missed while not serving, not caught up',
    );
    expect(model.requests).toHaveLength(0);

    clock.advanceTo('2026-11-28T10:15:00Z');
    const started = await next(/^run \S+ started/);
    const runId = started.split(' ')[1] ?? '';
    expect(started).toBe(`run ${runId} started · mission greet · schedule`);
    expect(await next(new RegExp(`^run ${runId} (?!started)`))).toBe(
      `run ${runId} succeeded · mission greet`,
    );
    expect(JSON.stringify(model.requests[0]?.body)).toContain('Greet Ada 1 times');

    signals.emit('SIGTERM');
    expect(await served).toBe(0);
    clock.advanceTo('2026-11-28T11:00:00Z');
    expect(lines.filter((line) => / started · /.test(line))).toHaveLength(1);
    expect(clock.pending()).toBe(0);
  });
});
