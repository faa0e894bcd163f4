/**
 * Issue 4, "Done when": missions run through the real CLI (`sortie run DIR MISSION --json`,
 * a child process) against the scripted model server, through each of the four providers.
 * This file: `flow`, every path that succeeds, chaining into `second` (one CLI run per
 * provider; the mission and its script are in cli-providers-flow.ts). The failures are in
 * cli-providers-failures.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MissionEvent } from '../../src/base/events.ts';
import { cleanUpAll } from './agent-tools-harness.ts';
import { FLOW_HCL, flowTurns, REPORT_QUERIES } from './cli-providers-flow.ts';
import {
  API_NAMES,
  CREDENTIAL_HEADERS,
  indexOf,
  outcomes,
  PROVIDERS,
  requestedModel,
  requestsOf,
  runCli,
  toolResults,
  wirePath,
  TEST_API_KEY,
  type CliRun,
} from './cli-providers-harness.ts';
import { eventsOf, sentMessages } from './engine-harness.ts';

/** A `score` record as `query_task_output` returns it. */
function record(index: number, name: string, points: number, kind: string) {
  return { index, item_id: name, status: 'succeeded', output: { name, points, kind } };
}

/** The most items of `task` running at once, from the iteration events. */
function peakRunning(events: readonly MissionEvent[], task: string): number {
  let running = 0;
  let peak = 0;
  for (const event of events) {
    if (!('task' in event) || event.task !== task) continue;
    if (event.type === 'iteration.started') running += 1;
    if (event.type === 'iteration.succeeded' || event.type === 'iteration.failed') running -= 1;
    peak = Math.max(peak, running);
  }
  return peak;
}

describe.each(PROVIDERS)('sortie run through %s: flow (real CLI, scripted server)', (provider) => {
  describe('flow: every path that succeeds, then the chained mission', () => {
    const turns = flowTurns();
    let run: CliRun;
    let events: MissionEvent[];
    beforeAll(async () => {
      run = await runCli({ provider, hcl: FLOW_HCL, turns, mission: 'flow' });
      events = run.events;
    }, 60_000);
    afterAll(cleanUpAll);

    it('exits 0 with every activated task succeeded, each request on the provider wire path', () => {
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      run.server.assertDone();
      expect(run.server.requests).toHaveLength(turns.length);
      for (const request of run.server.requests) {
        expect(request.method).toBe('POST');
        expect(request.path).toBe(wirePath(provider));
        expect(requestedModel(request)).toBe(API_NAMES[provider]);
        expect(request.stream).toBe(true);
        // The scripted server records credentials redacted: present, never readable.
        expect(request.headers[CREDENTIAL_HEADERS[provider]]).toBe('[redacted]');
      }
      expect(JSON.stringify(events)).not.toContain(TEST_API_KEY);
      expect(outcomes(events)).toEqual({
        left: 'succeeded',
        right: 'succeeded',
        score: 'succeeded',
        walk: 'succeeded',
        report: 'succeeded',
        recap: 'succeeded',
        audit: 'succeeded',
        handoff: 'succeeded',
        publish: 'succeeded',
        notify_a: 'succeeded',
        notify_b: 'succeeded',
        redo: 'skipped',
        archive: 'skipped',
        dig: 'succeeded',
      });
      expect(eventsOf(events, 'warning')).toEqual([]);
      expect(events.at(-1)).toMatchObject({
        type: 'run.finished',
        outcome: 'succeeded',
        exitCode: 0,
      });
    });

    it('runs the parallel branches together and starts their dependents after both', () => {
      const at = (type: string, task: string) =>
        indexOf(events, (event) => event.type === type && 'task' in event && event.task === task);
      expect(at('task.started', 'right')).toBeLessThan(at('task.succeeded', 'left'));
      expect(at('task.started', 'left')).toBeLessThan(at('task.succeeded', 'right'));
      const joined = Math.max(at('task.succeeded', 'left'), at('task.succeeded', 'right'));
      expect(at('task.started', 'score')).toBeGreaterThan(joined);
      expect(at('task.started', 'walk')).toBeGreaterThan(at('task.succeeded', 'left'));
      expect(requestsOf(events, 'commander:score[0]')[0]?.system).toContain(
        '## Completed dependencies\n- left: Left found two sources\n- right: Right is done\n',
      );
    });

    it('retries a failed parallel item with a fresh commander, two items at a time', () => {
      expect(eventsOf(events, 'iteration.retrying')).toMatchObject([
        {
          task: 'score',
          index: 1,
          itemId: 'bee',
          attempt: 2,
          maxAttempts: 2,
          error: 'no data yet',
        },
      ]);
      expect(eventsOf(events, 'iteration.failed')).toMatchObject([
        { task: 'score', index: 1, attempt: 1, final: false },
      ]);
      const succeeded = eventsOf(events, 'iteration.succeeded')
        .filter((event) => event.task === 'score')
        .map((event) => [event.index, event.attempt, event.output])
        .sort((left, right) => Number(left[0]) - Number(right[0]));
      expect(succeeded).toEqual([
        [0, 1, { name: 'ant', points: 1, kind: 'bug' }],
        [1, 2, { name: 'bee', points: 5, kind: 'bug' }],
        [2, 1, { name: 'cat', points: 3, kind: 'pet' }],
      ]);
      // The retry's first request carries the objective alone, not the failed conversation.
      const retried = requestsOf(events, 'commander:score[1]');
      expect(retried.map((request) => request.messageCount)).toEqual([1, 1, 3, 5, 7]);
      expect(peakRunning(events, 'score')).toBe(2);
      expect(
        eventsOf(events, 'task.succeeded').find((event) => event.task === 'score'),
      ).toMatchObject({
        summary: 'iterated over 3 items of dataset things: 3 succeeded, 0 failed',
      });
    });

    it('queries the structured output downstream with a filter and each aggregate', () => {
      expect(
        eventsOf(events, 'tool.called')
          .filter((event) => event.tool === 'query_task_output')
          .map((event) => JSON.parse(event.arguments) as unknown),
      ).toEqual(REPORT_QUERIES);
      expect(toolResults(events, 'query_task_output')).toEqual([
        {
          status: 'ok',
          task: 'score',
          total: 2,
          offset: 0,
          limit: 20,
          items: [record(1, 'bee', 5, 'bug'), record(2, 'cat', 3, 'pet')],
        },
        { status: 'ok', task: 'score', result: 3 },
        { status: 'ok', task: 'score', result: 6, skipped: 0 },
        { status: 'ok', task: 'score', result: 3, skipped: 0 },
        { status: 'ok', task: 'score', result: 1, item: record(0, 'ant', 1, 'bug') },
        { status: 'ok', task: 'score', result: 5, item: record(1, 'bee', 5, 'bug') },
        { status: 'ok', task: 'score', result: ['bug', 'pet'] },
        {
          status: 'ok',
          task: 'score',
          groups: [
            { key: 'bug', count: 2, result: 6 },
            { key: 'pet', count: 1, result: 3 },
          ],
        },
      ]);
    });

    it('routes: the chosen target runs, none activates nothing, a second activation loses; send_to fans out', () => {
      const routes = Object.fromEntries(
        eventsOf(events, 'route.chosen').map((event) => [
          event.task,
          { via: event.via, route: event.route, targets: event.targets },
        ]),
      );
      const lost = { activated: false, reason: expect.stringMatching(/^already_/) as unknown };
      expect(routes).toEqual({
        report: {
          via: 'router',
          route: 'publish',
          targets: [{ kind: 'task', name: 'publish', activated: true }],
        },
        audit: { via: 'router', route: null, targets: [] },
        recap: {
          via: 'router',
          route: 'publish',
          targets: [{ kind: 'task', name: 'publish', ...lost }],
        },
        publish: {
          via: 'send_to',
          route: null,
          targets: [
            { kind: 'task', name: 'notify_a', activated: true },
            { kind: 'task', name: 'notify_b', activated: true },
          ],
        },
        notify_a: {
          via: 'send_to',
          route: null,
          targets: [{ kind: 'task', name: 'notify_b', ...lost }],
        },
        handoff: {
          via: 'router',
          route: 'second',
          targets: [{ kind: 'mission', name: 'second', activated: true }],
        },
      });
      const activations = eventsOf(events, 'task.started')
        .filter((event) => event.activatedBy !== null)
        .map((event) => `${event.task}<-${event.activatedBy}`);
      expect(activations).toEqual(['publish<-report', 'notify_a<-publish', 'notify_b<-publish']);
      expect(
        eventsOf(events, 'task.skipped').map((event) => [event.task, event.reason, event.cause]),
      ).toEqual([
        ['redo', 'not_activated', null],
        ['archive', 'not_activated', null],
      ]);
    });

    it('walks the dataset item by item with a plan and an output for each', () => {
      const walk = 'commander:walk';
      expect(
        eventsOf(events, 'plan.updated')
          .filter((event) => event.task === 'walk' && event.subtasks[0]?.status === 'in_progress')
          .map((event) => [event.index, event.subtasks.map((subtask) => subtask.title)]),
      ).toEqual([
        [0, ['Item 0']],
        [1, ['Item 1']],
        [2, ['Item 2']],
      ]);
      expect(
        eventsOf(events, 'output.submitted')
          .filter((event) => event.task === 'walk')
          .map((event) => [event.index, event.output]),
      ).toEqual([
        [0, { points: 10 }],
        [1, { points: 50 }],
        [2, { points: 30 }],
      ]);
      const handedOut = toolResults(events, 'dataset_next', walk) as Array<{
        status: string;
        index?: number;
      }>;
      expect(handedOut.map((result) => result.index ?? result.status)).toEqual([
        0,
        1,
        2,
        'exhausted',
      ]);
      expect(
        eventsOf(events, 'task.succeeded').find((event) => event.task === 'walk'),
      ).toMatchObject({ summary: 'Walked 3 things' });
    });

    it("ask_commander follow-ups build on each other: from walk's items to left, and to walk across its items", () => {
      expect(toolResults(events, 'ask_commander', 'commander:walk')).toEqual([
        { status: 'ok', task: 'left', index: null, question_index: 0, answer: 'Source A first.' },
        { status: 'ok', task: 'left', index: null, question_index: 1, answer: 'Then source B.' },
      ]);
      expect(toolResults(events, 'ask_commander', 'commander:recap')).toEqual([
        { status: 'ok', task: 'walk', index: 0, question_index: 0, answer: 'Item 0 scored 10.' },
        {
          status: 'ok',
          task: 'walk',
          index: 2,
          question_index: 1,
          answer: 'Item 2 scored 30, above item 0.',
        },
      ]);
      expect(toolResults(events, 'list_commander_questions')).toEqual([
        {
          status: 'ok',
          task: 'walk',
          questions: [
            {
              index: 0,
              question: 'How did item 0 go?',
              iteration: 0,
              asked_by: 'recap',
              answered: true,
            },
            {
              index: 1,
              question: 'And item 2, compared?',
              iteration: 2,
              asked_by: 'recap',
              answered: true,
            },
          ],
        },
      ]);
      // One fork per target commander; the second question is sent with the first and its answer.
      for (const fork of ['commander:left#fork', 'commander:walk#fork']) {
        const [first, second] = requestsOf(events, fork);
        expect(second?.messageCount).toBe((first?.messageCount ?? 0) + 2);
        expect(JSON.stringify(sentMessages(events, second!))).toContain(
          fork === 'commander:left#fork' ? 'Source A first.' : 'Item 0 scored 10.',
        );
      }
    });

    it('ask_agent reaches the agent of a dependency, which answers without tools', () => {
      expect(toolResults(events, 'ask_agent')).toEqual([
        { status: 'ok', agent: 'researcher', answer: 'I skipped paywalled sources.' },
      ]);
      const [question] = requestsOf(events, 'agent:left/researcher#fork');
      expect(question?.tools).toEqual([]);
      const wire = run.server.requests.filter(
        (request) => request.actor === 'agent:left/researcher#fork',
      );
      expect(wire).toHaveLength(1);
      expect(JSON.stringify(wire[0]?.body)).toContain('What did you skip?');
    });

    it("chains the mission `second` with the route's validated inputs, defaults applied", () => {
      expect(
        eventsOf(events, 'mission.started').map((event) => [
          event.mission,
          event.chainedFrom,
          event.inputs,
        ]),
      ).toEqual([
        ['flow', null, {}],
        ['second', 'flow', { topic: 'tides', depth: 2 }],
      ]);
      expect(eventsOf(events, 'mission.succeeded').map((event) => event.mission)).toEqual([
        'flow',
        'second',
      ]);
      const [dig] = requestsOf(events, 'commander:dig');
      expect(sentMessages(events, dig!)[0]).toEqual({
        role: 'user',
        parts: [{ type: 'text', text: 'Dig into tides at depth 2' }],
      });
    });
  });
});
