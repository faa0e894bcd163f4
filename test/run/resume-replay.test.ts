/**
 * `sortie resume --replay-model` with the run's own cassette: a run replayed from a cassette
 * and stopped at any point resumes from its journal against the same cassette, with no
 * mismatch. A resumed actor's requests keep the turn numbers of the run (the cassette's keys),
 * not numbers counted afresh by the new process.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../src/actors/contracts.ts';
import type { MissionEvent } from '../../src/base/events.ts';
import { loadProject } from '../../src/config/index.ts';
import type { Config } from '../../src/config/config-types.ts';
import { loadCassette, replayClients, type Cassette } from '../../src/journal/cassette/index.ts';
import { restoreFromJournal, type RunJournalState } from '../../src/journal/restore.ts';
import { startRun } from '../../src/run/start-run.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';

const EXAMPLES = join(import.meta.dirname, '../../examples');

/** An example project, its cassette and the events of one complete replay of it. */
interface Replayed {
  config: Config;
  cassette: Cassette;
  mission: string;
  inputs: Record<string, unknown>;
  complete: MissionEvent[];
}

async function replay(
  example: Omit<Replayed, 'complete'>,
  resume?: RunJournalState,
): Promise<{ result: RunResult; events: MissionEvent[] }> {
  const events: MissionEvent[] = [];
  const handle = startRun({
    config: example.config,
    mission: example.mission,
    inputs: example.inputs,
    stateDir: join(await temporaryDirectory(), '.sortie'),
    clients: replayClients(example.cassette),
    subscribers: [(event) => events.push(event)],
    runId: 'baseline',
    ...(resume !== undefined ? { resume } : {}),
  });
  return { result: await handle.done, events };
}

async function replayed(
  name: string,
  mission: string,
  inputs: Record<string, unknown>,
): Promise<Replayed> {
  const directory = join(EXAMPLES, name);
  const example = {
    config: await loadProject(directory, { vars: {}, env: {} }),
    cassette: await loadCassette(join(directory, 'cassette.jsonl')),
    mission,
    inputs,
  };
  const { result, events } = await replay(example);
  expect(result.status).toBe('succeeded');
  return { ...example, complete: events.filter((event) => event.type !== 'model.delta') };
}

let hello: Replayed;
let research: Replayed;

beforeAll(async () => {
  hello = await replayed('hello', 'hello', {});
  research = await replayed('research', 'research', { question: 'Why is the sky blue?' });
});

/** The name of a tool call (other than call_agent, which resumes its agent) left open at the end. */
function openToolCall(journal: readonly MissionEvent[]): string | undefined {
  const open = new Map<string, string>();
  for (const event of journal) {
    if (event.type === 'message.appended') {
      for (const part of event.message.parts) {
        if (part.type === 'tool_call' && part.name !== 'call_agent') open.set(part.id, part.name);
      }
    }
    if (event.type === 'tool.completed') open.delete(event.callId);
  }
  return [...open.values()][0];
}

describe('resuming a replayed run against its own cassette', () => {
  // Every event of hello; for the larger research run, the points where a turn starts or ends.
  const everyEvent = () => true;
  const turnBoundary = (event: MissionEvent | undefined) =>
    event?.type === 'model.request' ||
    event?.type === 'model.response' ||
    event?.type === 'tool.completed';
  it.each([
    ['hello', () => hello, everyEvent],
    ['research', () => research, turnBoundary],
  ])(
    '%s: succeeds from every point outside a tool call, as a cancelled or killed run leaves it',
    async (_name, example, cutAfter) => {
      const { complete } = example();
      const failures: string[] = [];
      let resumed = 0;
      for (let cut = 1; cut < complete.length - 1; cut += 1) {
        const journal = complete.slice(0, cut);
        if (!cutAfter(journal.at(-1)) || openToolCall(journal) !== undefined) continue;
        resumed += 1;
        const { result } = await replay(example(), restoreFromJournal('baseline', journal));
        if (result.status === 'succeeded') continue;
        const failure = result.missions.find((mission) => mission.error !== undefined)?.error;
        failures.push(`after ${journal.at(-1)?.type} #${cut}: ${failure?.split('\n')[0]}`);
      }
      expect(failures).toEqual([]);
      expect(resumed).toBeGreaterThan(10);
    },
    60_000,
  );

  it('fails inside an interrupted tool call with a diff showing the result the restart gave', async () => {
    const cut = hello.complete.findIndex((event) => event.type === 'plan.updated');
    const journal = hello.complete.slice(0, cut + 1);
    expect(openToolCall(journal)).toBe('set_subtasks');
    const { result } = await replay(hello, restoreFromJournal('baseline', journal));
    expect(result.missions[0]?.error).toContain('interrupted by a restart');
  });

  it("numbers a resumed commander's requests after its journaled turns", async () => {
    const secondRequest = hello.complete.findIndex(
      (event) =>
        event.type === 'model.request' && event.actor === 'commander:greet' && event.turn === 2,
    );
    const journal = hello.complete.slice(0, secondRequest);
    const { events } = await replay(hello, restoreFromJournal('baseline', journal));
    const turns = events.flatMap((event) =>
      event.type === 'model.request' ? [`${event.actor} ${event.turn}`] : [],
    );
    expect(turns).toEqual([
      'commander:greet 2',
      'agent:greet/greeter 1',
      'commander:greet 3',
      'commander:greet 4',
    ]);
  });
});
