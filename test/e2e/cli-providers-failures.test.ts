/**
 * Issue 4, "Done when", the failing paths through the real CLI against the scripted model
 * server, for each of the four providers: `trouble` (a budget breach, exhausted nudges and
 * an exception inside a tool, under `--keep-going`), `smoke` (a failed smoketest failing the
 * mission fast) and `stall` (Ctrl-C while a request is in flight). Missions and scripts are
 * in cli-providers-failures.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MissionEvent } from '../../src/base/events.ts';
import { cleanUpAll } from './agent-tools-harness.ts';
import {
  interruptCli,
  outcomes,
  PROVIDERS,
  requestsOf,
  runCli,
  toolResults,
  wirePath,
  type CliRun,
} from './cli-providers-harness.ts';
import {
  SMOKE_HCL,
  smokeTurns,
  STALL_HCL,
  stallTurns,
  TROUBLE_HCL,
  troubleTurns,
} from './cli-providers-failures.ts';
import { eventsOf, sentMessages } from './engine-harness.ts';

describe.each(PROVIDERS)(
  'sortie run through %s: failures (real CLI, scripted server)',
  (provider) => {
    describe('trouble: a budget breach, exhausted nudges and a throwing tool under --keep-going', () => {
      let run: CliRun;
      let events: MissionEvent[];
      beforeAll(async () => {
        run = await runCli({
          provider,
          hcl: TROUBLE_HCL,
          turns: troubleTurns(),
          mission: 'trouble',
          flags: ['--keep-going'],
        });
        events = run.events;
      }, 60_000);
      afterAll(cleanUpAll);

      it('exits 1; each failure fails only its own task and what depends on it', () => {
        expect(run.stderr).toBe('');
        expect(run.status).toBe(1);
        run.server.assertDone();
        expect(run.server.requests.map((request) => request.path)).toEqual(
          Array.from({ length: 10 }, () => wirePath(provider)),
        );
        expect(outcomes(events)).toEqual({
          spend: 'failed',
          after_spend: 'skipped',
          mute: 'failed',
          tooling: 'succeeded',
        });
        expect(eventsOf(events, 'mission.failed')).toMatchObject([
          {
            mission: 'trouble',
            failedTask: 'spend',
            error: 'task "spend" failed: budget exceeded: task "spend" used 160 of 100 tokens',
          },
        ]);
        expect(events.at(-1)).toMatchObject({
          type: 'run.finished',
          outcome: 'failed',
          exitCode: 1,
        });
      });

      it('a task budget breach emits budget.exceeded, fails the task and skips its dependent', () => {
        expect(eventsOf(events, 'budget.exceeded')).toMatchObject([
          {
            actor: 'commander:spend',
            scope: 'task',
            subject: 'spend',
            metric: 'tokens',
            used: 160,
            limit: 100,
            message: 'budget exceeded: task "spend" used 160 of 100 tokens',
          },
        ]);
        expect(eventsOf(events, 'task.failed').find((event) => event.task === 'spend')?.error).toBe(
          'budget exceeded: task "spend" used 160 of 100 tokens',
        );
        expect(requestsOf(events, 'commander:spend')).toHaveLength(1);
        expect(eventsOf(events, 'task.skipped')).toMatchObject([
          { task: 'after_spend', reason: 'upstream_failed', cause: 'spend' },
        ]);
      });

      it('a commander that stops calling tools fails after two nudges, each a real turn', () => {
        expect(eventsOf(events, 'task.failed').find((event) => event.task === 'mute')?.error).toBe(
          'commander stopped calling tools',
        );
        const turns = requestsOf(events, 'commander:mute');
        expect(turns).toHaveLength(3);
        for (const nudged of turns.slice(1)) {
          expect(sentMessages(events, nudged).at(-1)).toEqual({
            role: 'user',
            parts: [
              { type: 'text', text: 'Call a tool: continue your plan, or call task_complete.' },
            ],
          });
        }
        expect(
          eventsOf(events, 'model.response').filter((event) => event.actor === 'commander:mute'),
        ).toHaveLength(3);
      });

      it('an exception inside a tool becomes its error result; the agent and the task go on', () => {
        expect(
          eventsOf(events, 'tool.completed').find((event) => event.tool === 'tools_lookup'),
        ).toMatchObject({
          actor: 'agent:tooling/fetcher',
          isError: true,
          result: JSON.stringify({
            status: 'error',
            error:
              'could not build the request: cannot read "name" of inputs.city: it is a string, not an object',
          }),
        });
        expect(toolResults(events, 'call_agent')).toEqual([
          { status: 'ok', agent: 'fetcher', result: 'The lookup tool failed.' },
        ]);
        expect(
          eventsOf(events, 'task.succeeded').find((event) => event.task === 'tooling'),
        ).toMatchObject({ summary: 'Lookup failed, reported' });
      });
    });

    describe('smoke: a failed smoketest fails the mission fast', () => {
      let run: CliRun;
      let events: MissionEvent[];
      beforeAll(async () => {
        run = await runCli({ provider, hcl: SMOKE_HCL, turns: smokeTurns(), mission: 'smoke' });
        events = run.events;
      }, 60_000);
      afterAll(cleanUpAll);

      it('item 0 fails after its retry, the other items never start, the sibling is cancelled', () => {
        expect(run.stderr).toBe('');
        expect(run.status).toBe(1);
        expect(outcomes(events)).toEqual({ probe: 'failed', after: 'skipped', slow: 'cancelled' });
        expect(eventsOf(events, 'task.failed')).toMatchObject([
          { task: 'probe', error: 'smoketest item 0 failed: no data' },
        ]);
        expect(
          eventsOf(events, 'iteration.started').map((event) => [event.index, event.attempt]),
        ).toEqual([
          [0, 1],
          [0, 2],
        ]);
        expect(eventsOf(events, 'iteration.failed').map((event) => event.final)).toEqual([
          false,
          true,
        ]);
        expect(eventsOf(events, 'task.cancelled')).toMatchObject([
          { task: 'slow', reason: 'task "probe" failed' },
        ]);
        expect(eventsOf(events, 'task.skipped')).toMatchObject([
          { task: 'after', reason: 'upstream_failed', cause: 'probe' },
        ]);
        expect(
          eventsOf(events, 'model.response').filter((event) => event.actor === 'commander:slow'),
        ).toEqual([]);
        expect(
          run.server.requests
            .filter((request) => request.actor === 'commander:probe[0]')
            .map((request) => request.path),
        ).toEqual([wirePath(provider), wirePath(provider)]);
        expect(eventsOf(events, 'mission.failed')).toMatchObject([
          { mission: 'smoke', failedTask: 'probe' },
        ]);
        expect(events.at(-1)).toMatchObject({
          type: 'run.finished',
          outcome: 'failed',
          exitCode: 1,
        });
      });
    });

    it('Ctrl-C while a request is in flight cancels the run and exits 130', async () => {
      try {
        const run = await interruptCli(
          { provider, hcl: STALL_HCL, turns: stallTurns(), mission: 'stall' },
          (server) => server.requests.some((request) => request.actor === 'commander:wait'),
        );
        expect(run.stderr).toBe('');
        expect(run.status).toBe(130);
        expect(run.server.requests.map((request) => [request.actor, request.path])).toEqual([
          ['commander:wait', wirePath(provider)],
        ]);
        expect(outcomes(run.events)).toEqual({ after: 'skipped', wait: 'cancelled' });
        expect(eventsOf(run.events, 'task.cancelled')).toMatchObject([
          { task: 'wait', reason: 'cancelled by the user' },
        ]);
        expect(eventsOf(run.events, 'model.response')).toEqual([]);
        expect(eventsOf(run.events, 'mission.cancelled')).toMatchObject([
          { mission: 'stall', reason: 'cancelled by the user' },
        ]);
        expect(run.events.at(-1)).toMatchObject({
          type: 'run.finished',
          outcome: 'cancelled',
          exitCode: 130,
        });
      } finally {
        await cleanUpAll();
      }
    }, 60_000);
  },
);
