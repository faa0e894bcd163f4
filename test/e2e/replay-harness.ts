/**
 * Shared setup of the replay tests: the `survey` mission (agents, a structured output, a
 * parallel iteration with an agent per item, a router), the script of turns that runs it to
 * success on the scripted model server, and readers that put two runs' journals side by side.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ScriptTurn } from '../../src/testing/index.ts';
import { call, jsonLines, reply, runDirs } from './agent-tools-harness.ts';

/** The mission's HCL for `writeProject` (`MODEL` is the scripted server's model). */
export const SURVEY_HCL = `
agent "scout" {
  model       = MODEL
  personality = "You look things up and report them in one sentence."
}

agent "writer" {
  model       = MODEL
  personality = "You write short, clear notes."
}

mission "survey" {
  commander {
    model = MODEL
  }
  agents = [agents.scout, agents.writer]

  inputs = {
    topic = string("What to note", { default = "tides" })
  }

  dataset "places" {
    schema = {
      name = string("Place name", true)
    }
    items = [{ name = "Lisbon" }, { name = "Porto" }, { name = "Faro" }]
  }

  task "gather" {
    objective = "Gather facts about \${inputs.topic}"
    agents    = [agents.scout]
    output = {
      facts = list(string, "Facts", true)
    }
  }

  task "visit" {
    objective  = "Visit \${item.name} and note its \${inputs.topic}"
    depends_on = [tasks.gather]
    agents     = [agents.scout]
    iterator {
      dataset           = datasets.places
      parallel          = true
      concurrency_limit = 3
    }
    output = {
      place = string("Place", true)
      note  = string("Note", true)
    }
  }

  task "decide" {
    objective  = "Decide whether the notes are enough to publish"
    depends_on = [tasks.visit]
    router {
      route {
        target    = tasks.publish
        condition = "Every place has a note"
      }
      route {
        target    = tasks.follow_up
        condition = "Notes are missing"
      }
    }
  }

  task "publish" {
    objective = "Publish the notes"
    agents    = [agents.writer]
  }

  task "follow_up" {
    objective = "List the missing notes"
  }
}
`;

/** The objective of `decide` as written in SURVEY_HCL (the edited-prompt test changes it). */
export const DECIDE_OBJECTIVE = 'Decide whether the notes are enough to publish';

export const PLACES = ['Lisbon', 'Porto', 'Faro'] as const;

/** The outputs the script submits, as the run's task outputs. */
export const SURVEY_OUTPUTS = {
  gather: { facts: ['Tides follow the moon', 'Spring tides are the largest'] },
  visit: PLACES.map((place, index) => ({ place, note: `${index + 2} m tidal range` })),
};

/** Every turn carries a usage, different per turn, so cost and tokens replay visibly. */
function priced(turns: ScriptTurn[]): ScriptTurn[] {
  return turns.map((turn, index) => ({
    ...turn,
    usage: { input: 900 + 37 * index, output: 20 + index, cacheRead: index % 2 === 0 ? 512 : 0 },
  }));
}

export interface SurveyScriptOptions {
  /** Holds the writer's answer this long (ms): a long, real gap in the journal. */
  writerDelayMs?: number;
}

/** The turns that run `survey` to success along the `publish` route. */
export function surveyTurns(options: SurveyScriptOptions = {}): ScriptTurn[] {
  const gather = 'commander:gather';
  const decide = 'commander:decide';
  const publish = 'commander:publish';
  return priced([
    call(gather, 'set_subtasks', { subtasks: ['Ask the scout'] }),
    call(gather, 'call_agent', { name: 'scout', task: 'Find two facts about tides' }),
    reply('agent:gather/scout', 'Tides follow the moon; spring tides are the largest.'),
    call(gather, 'complete_subtask'),
    call(gather, 'submit_output', { output: SURVEY_OUTPUTS.gather }),
    call(gather, 'task_complete', { summary: 'Two facts found' }),
    ...PLACES.flatMap((place, index) => {
      const commander = `commander:visit[${index}]`;
      return [
        call(commander, 'set_subtasks', { subtasks: [`Note ${place}`] }),
        call(commander, 'call_agent', { name: 'scout', task: `Note the tides of ${place}` }),
        reply(`agent:visit[${index}]/scout`, `${place} has a tidal range of ${index + 2} m.`),
        call(commander, 'submit_output', { output: SURVEY_OUTPUTS.visit[index] }),
        call(commander, 'complete_subtask'),
        call(commander, 'task_complete', { summary: `Noted ${place}` }),
      ];
    }),
    call(decide, 'set_subtasks', { subtasks: ['Read the notes'] }),
    call(decide, 'query_task_output', { task: 'visit' }),
    call(decide, 'complete_subtask'),
    call(decide, 'task_complete', { summary: 'Every place has a note', route: 'publish' }),
    call(publish, 'set_subtasks', { subtasks: ['Have the notes written'] }),
    call(publish, 'call_agent', { name: 'writer', task: 'Write up the tide notes' }),
    {
      ...reply('agent:publish/writer', 'Lisbon 2 m, Porto 3 m, Faro 4 m.'),
      ...(options.writerDelayMs === undefined ? {} : { delayMs: options.writerDelayMs }),
    },
    call(publish, 'complete_subtask'),
    call(publish, 'task_complete', { summary: 'Published: Lisbon 2 m, Porto 3 m, Faro 4 m.' }),
  ]);
}

/** A journal event as JSON. */
export type JournalEvent = Record<string, unknown> & { type: string; actor: string };

/** The events of every run of a state directory, oldest run first (without the lines' checksums). */
export async function journals(stateDir: string): Promise<JournalEvent[][]> {
  const runs = await runDirs(stateDir);
  return Promise.all(
    runs.map(
      async (run) =>
        jsonLines(await readFile(join(run, 'journal.jsonl'), 'utf8')) as JournalEvent[],
    ),
  );
}

/**
 * Fields that legitimately differ between a recorded run and its replay:
 * - `seq`: the run-wide position; parallel items interleave differently from run to run
 *   (each actor's own order is compared instead, see `byActor`);
 * - `time`: the wall clock;
 * - `runId`: every run gets a new one;
 * - `durationMs` (tasks, items, model responses, tool calls, mission, run): wall time;
 * - `requestId`: a run-wide counter (`request_N`) taken in the order requests are made,
 *   which interleaved items make in a different order.
 * Everything else, message contents, tool call ids, usage and cost included, must match.
 */
const DIFFERING_FIELDS = ['seq', 'time', 'runId', 'durationMs', 'requestId'];

/** An event without the fields that differ between runs. */
export function comparable(event: JournalEvent): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(event).filter(([field]) => !DIFFERING_FIELDS.includes(field)),
  );
}

/** Each actor's events in journal order, compared form. */
export function byActor(events: readonly JournalEvent[]): Map<string, unknown[]> {
  const actors = new Map<string, unknown[]>();
  for (const event of events) {
    const list = actors.get(event.actor) ?? [];
    list.push(comparable(event));
    actors.set(event.actor, list);
  }
  return actors;
}

/** Whether an actor belongs to one item of an iterated task (`commander:visit[1]`, `agent:visit[1]/scout`). */
export function isItemActor(actor: string): boolean {
  return /\[\d+\]/.test(actor);
}
