/**
 * The control path of a distributed run, with two real worker processes and a real
 * redis-server: a worker's actor stops at the run's step gate and goes on when the person steps
 * or continues; an agent on a worker asks the run's person and gets the answer.
 */
import { describe, expect, it } from 'vitest';
import { DebugGate } from '../../src/runtime/gate.ts';
import type { RespondRequest, ScriptTurn } from '../../src/testing/index.ts';
import {
  anthropicCallsSoFar,
  largeResultProject,
  pageText,
  respondToPages,
} from '../actors/resume/large-result-fixture.ts';
import { askTurn, eventsOf, heldPoints, startQueuedRun } from './queue-control-harness.ts';
import { projectFolder, queueTestForFile, waitForOutput } from './queue-harness.ts';
import { call } from '../helpers/script-turns.ts';

const PAGE_BYTES = 40;

function offers(body: unknown, name: string): boolean {
  const tools = (body as { tools?: Array<{ name?: string }> }).tools ?? [];
  return tools.some((tool) => tool.name === name);
}

/** The plain task `intro`, then items of `read` that first ask intro's commander where to start. */
function respondToAsking(request: RespondRequest): ScriptTurn | undefined {
  const actor = request.actor ?? '';
  const step = anthropicCallsSoFar(request.body);
  if (actor === 'commander:intro') {
    const steps = [call('set_subtasks', { subtasks: ['Introduce'] }), call('complete_subtask')];
    return steps[step] ?? call('task_complete', { summary: 'introduced the pages' });
  }
  if (actor === 'commander:intro#fork') {
    return { text: 'Start at the top.', usage: { input: 30, output: 5 } };
  }
  const item = /^commander:read\[(\d+)\]$/.exec(actor);
  if (item === null) return undefined;
  const index = Number(item[1]);
  const steps = [
    call('set_subtasks', { subtasks: ['Read the page'] }),
    call('ask_commander', { task_name: 'intro', question: `Where does page ${index} start?` }),
    call('call_agent', { name: 'reader', task: `Read page ${index}` }),
    call('complete_subtask'),
    call('submit_output', { output: { chars: PAGE_BYTES } }),
    call('task_complete', { summary: `read page ${index}` }),
  ];
  return steps[step];
}

/** The pages' script; a reader that may ask the person first asks, then reads. */
function respond(request: RespondRequest) {
  if (request.actor?.includes('intro') === true || offers(request.body, 'ask_commander')) {
    return respondToAsking(request);
  }
  const reader = /^agent:read\[(\d+)\]\/reader$/.exec(request.actor ?? '');
  if (reader !== null && offers(request.body, 'builtins_human_ask')) {
    const index = Number(reader[1]);
    return anthropicCallsSoFar(request.body) === 0
      ? askTurn(index)
      : { text: pageText(index, PAGE_BYTES), usage: { input: 50, output: 8 } };
  }
  return respondToPages(PAGE_BYTES)(request);
}

const queue = queueTestForFile({ name: 'queue-control', respond, workers: 2 });
const plainProject = projectFolder('queue-control', largeResultProject(2));
const askingProject = projectFolder(
  'queue-control-ask',
  largeResultProject(2).replace(
    'personality = "You read pages aloud."',
    'personality = "You read pages aloud."\n  tools = [builtins.human.ask]',
  ),
);
const commanderProject = projectFolder(
  'queue-control-commander',
  largeResultProject(2)
    .replace(
      '  task "read" {',
      '  task "intro" {\n    objective = "Introduce the pages"\n  }\n  task "read" {',
    )
    .replace(
      'objective = "Read page ${item.n}"',
      'objective = "Read page ${item.n}"\n    depends_on = [tasks.intro]',
    ),
);

describe('step debugging across workers', () => {
  it('holds the workers actors at the run gate and lets them go on a step, then a continue', async () => {
    const gate = new DebugGate({ startPaused: true });
    const run = await startQueuedRun({ ...queue.runOptions(plainProject), gate });

    // Both items' commanders stop before their first model request, on the workers.
    await heldPoints(gate, 2);
    const first = gate.held();
    expect(first.map((point) => [point.kind, point.actor]).sort()).toEqual([
      ['model', 'commander:read[0]'],
      ['model', 'commander:read[1]'],
    ]);
    const requestsWhileHeld = queue.server.requests.length;

    // A step lets the oldest go: it sends its request and stops at its next point, its tool call.
    const stepped = gate.step();
    await heldPoints(gate, 2);
    const next = gate.held().find((point) => point.actor === stepped?.actor);
    expect(next?.kind).toBe('tool');
    expect(next?.tool).toBe('set_subtasks');

    gate.continue();
    const result = await run.done;
    expect(result.status).toBe('succeeded');
    expect(requestsWhileHeld).toBe(0);
    expect(queue.server.requests.length).toBe(12);

    const paused = eventsOf(run.events, 'gate.paused');
    const resumed = eventsOf(run.events, 'gate.resumed');
    expect(paused.map((event) => event.actor)).toEqual([
      ...first.map((point) => point.actor),
      stepped?.actor,
    ]);
    expect(resumed.map((event) => [event.actor, event.how])).toEqual([
      [stepped?.actor, 'step'],
      [first[1]?.actor, 'continue'],
      [stepped?.actor, 'continue'],
    ]);
    // Each point is held before the request it guards and after the worker's earlier events.
    const where = (type: string, nth = 0) =>
      run.events
        .map((event, index) => ({ event, index }))
        .filter(({ event }) => event.type === type && event.actor === stepped?.actor)[nth]?.index;
    expect(where('gate.paused', 0)).toBeLessThan(where('model.request', 0) ?? -1);
    expect(where('model.response', 0)).toBeLessThan(where('gate.paused', 1) ?? -1);
    expect(where('gate.resumed', 1)).toBeLessThan(where('tool.completed', 0) ?? -1);
  }, 120_000);
});

describe('questions to the person from a worker', () => {
  it('asks the run person through the run desk and gives the agent the answer', async () => {
    const before = queue.server.requests.length;
    const run = await startQueuedRun({
      ...queue.runOptions(askingProject),
      human: { available: false, answerer: (question) => `yes: ${question.question}` },
    });
    const result = await run.done;
    expect(result.status).toBe('succeeded');

    const asked = eventsOf(run.events, 'human.asked');
    expect(asked.map((event) => [event.actor, event.question]).sort()).toEqual([
      ['agent:read[0]/reader', 'Read page 0?'],
      ['agent:read[1]/reader', 'Read page 1?'],
    ]);
    const answered = eventsOf(run.events, 'human.answered');
    expect(answered.map((event) => [event.actor, event.answer, event.how]).sort()).toEqual([
      ['agent:read[0]/reader', 'yes: Read page 0?', 'person'],
      ['agent:read[1]/reader', 'yes: Read page 1?', 'person'],
    ]);
    // Each reader's next request carries the person's answer as the tool's result.
    const readers = queue.server.requests
      .slice(before)
      .filter((request) => /^agent:read\[\d\]\/reader$/.test(request.actor ?? ''));
    const answers = readers.flatMap((request) => {
      const text = JSON.stringify(request.body);
      return /yes: Read page (\d)\?/.exec(text)?.[1] ?? [];
    });
    expect(answers.sort()).toEqual(['0', '1']);
    expect(queue.server.requests.length - before).toBe(2 * 7);
  }, 120_000);
});

describe('cancelling a distributed run', () => {
  it('stops the tries held on the workers and lets go of their gate points', async () => {
    const gate = new DebugGate({ startPaused: true });
    const run = await startQueuedRun({ ...queue.runOptions(plainProject), gate });
    await heldPoints(gate, 2);
    const { runId } = run.handle;
    // Each try is settled on whichever worker holds it.
    const stoppedOnWorkers = Promise.all(
      [0, 1].map((index) =>
        Promise.any(
          queue.workers.map((worker) =>
            waitForOutput(worker.process, 'stderr', `${runId} read[${index}] try 1 `),
          ),
        ),
      ),
    );
    run.handle.cancel();
    expect((await run.done).status).toBe('cancelled');
    await stoppedOnWorkers;
    expect(gate.held()).toEqual([]);
    const resumed = eventsOf(run.events, 'gate.resumed');
    expect(resumed.map((event) => event.how)).toEqual(['aborted', 'aborted']);
  }, 120_000);
});

describe('ask_commander from a worker', () => {
  it('is answered in the run process by the earlier task commander, whose fork continues across items', async () => {
    const before = queue.server.requests.length;
    const run = await startQueuedRun(queue.runOptions(commanderProject));
    const result = await run.done;
    expect(result.status).toBe('succeeded');

    const asked = eventsOf(run.events, 'question.asked');
    expect(asked.map((event) => [event.actor, event.task, event.askedBy]).sort()).toEqual([
      ['commander:read[0]', 'intro', 'read[0]'],
      ['commander:read[1]', 'intro', 'read[1]'],
    ]);
    const answered = eventsOf(run.events, 'question.answered');
    expect(answered.map((event) => [event.actor, event.answer])).toEqual([
      ['commander:intro', 'Start at the top.'],
      ['commander:intro', 'Start at the top.'],
    ]);
    // The fork ran here, once per question, the second continuing the first's conversation.
    const forks = queue.server.requests
      .slice(before)
      .filter((r) => r.actor === 'commander:intro#fork');
    expect(forks).toHaveLength(2);
    expect(JSON.stringify(forks[1]?.body)).toContain('Start at the top.');
    // Each item's commander got the answer as its tool result.
    const itemsAnswered = queue.server.requests
      .slice(before)
      .filter((request) => /^commander:read\[\d\]$/.test(request.actor ?? ''))
      .filter((request) => anthropicCallsSoFar(request.body) === 2)
      .map((request) => JSON.stringify(request.body).includes('Start at the top.'));
    expect(itemsAnswered).toEqual([true, true]);
  }, 120_000);
});
