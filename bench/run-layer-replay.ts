/**
 * The run layer's CPU per model request, alone (issue 12): one sortie run's events replayed
 * through a bus with the run's redaction (the bench's API key as the secret, or none with
 * `SORTIE_BENCH_NO_SECRET=1`), the journal's line encoding and a second listener, plus the
 * run's function-tool calls (argument parsing with defaults, the secrets wrapper, the tool's
 * result). No model, no disk, no xstate: only
 * `src/runtime/event-bus.ts`, `src/run/run-redactor.ts`, `src/base/event-json.ts`,
 * `src/journal/writer.ts`, `src/schema` and `src/tools`. Given a second compiled copy
 * (`SORTIE_BENCH_OTHER=<its src folder>`), the two are measured in alternating rounds in the
 * one process, so load moves both alike.
 */
/* eslint-disable @typescript-eslint/no-explicit-any --
 * the modules of a compiled copy are loaded by path, so their types are not known here (they
 * are the sources' types). */
import type { MissionEvent } from '../src/base/events.ts';
import type { SortieTool } from '../src/tools/functions/function-tool.ts';

const ROUNDS = 40;
const WARMUP_ROUNDS = 5;
const RUNS_PER_ROUND = 200;

/** One run's worth of run-layer work, for the compiled sources at `srcRoot`. */
type ReplayRun = () => Promise<void>;

async function replayer(
  srcRoot: string,
  events: readonly MissionEvent[],
  tool: SortieTool,
  calls: number,
): Promise<ReplayRun> {
  const load = (path: string): Promise<any> => import(new URL(path, srcRoot).href);
  const a: any = {
    ...(await load('runtime/event-bus.js')),
    ...(await load('run/run-redactor.js')),
    ...(await load('tools/secrets.js')),
    ...(await load('journal/writer.js')),
    ...(await load('base/events.js')),
    ...(await load('tools/define-tool.js')),
    ...(await load('tools/functions/function-tool.js')),
  };
  const inputs = events.map(({ seq: _seq, time: _time, runId: _runId, ...input }) => input);
  // SORTIE_BENCH_NO_SECRET=1: a run without any secret value.
  const secrets = process.env.SORTIE_BENCH_NO_SECRET === '1' ? [] : ['sk-bench-0123456789'];
  const redact = a.secretRedactor(secrets);
  const agentTool = a.agentToolOf(tool);
  const signal = new AbortController().signal;
  let sink = 0;
  return async () => {
    const bus = new a.EventBus({ runId: 'run', redact: a.eventRedactor({ current: redact }) });
    const lines: string[] = [];
    const journal = (event: MissionEvent): void => {
      if (a.isJournaled(event)) lines.push(a.encodeJournalLine(event).line);
    };
    bus.subscribe(Object.assign(journal, { ignoredTypes: a.UNJOURNALED_TYPES ?? new Set() }));
    bus.subscribe((event: MissionEvent) => (sink += event.seq));
    for (const input of inputs) bus.emit(input);
    const wrapped = a.withSecrets(agentTool, {});
    for (let n = 0; n < calls; n++) {
      const parsed = a.parseToolArguments(agentTool.definition, `{"n":${n}}`);
      const outcome = await wrapped.execute(parsed.args, { signal, callId: `call_${n}` });
      sink += String(outcome.content).length;
    }
    sink += lines.join('').length;
  };
}

/** Median CPU µs per request of each build, measured in alternating rounds. */
export async function replayRunLayer(
  events: readonly MissionEvent[],
  tool: SortieTool,
  calls: number,
  requests: number,
): Promise<string> {
  const builds = new Map<string, ReplayRun>();
  builds.set(
    'this build',
    await replayer(new URL('../src/', import.meta.url).href, events, tool, calls),
  );
  const other = process.env.SORTIE_BENCH_OTHER;
  if (other !== undefined) {
    const root = new URL(`file://${other.endsWith('/') ? other : `${other}/`}`).href;
    builds.set(`other (${other})`, await replayer(root, events, tool, calls));
  }
  const cpu = new Map<string, number[]>([...builds.keys()].map((name) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? [...builds] : [...builds].reverse();
    for (const [name, run] of order) {
      const before = process.cpuUsage();
      for (let index = 0; index < RUNS_PER_ROUND; index++) await run();
      const used = process.cpuUsage(before);
      if (round >= WARMUP_ROUNDS)
        cpu.get(name)!.push((used.user + used.system) / RUNS_PER_ROUND / requests);
    }
  }
  const median = (values: number[]): number =>
    [...values].sort((left, right) => left - right)[Math.floor(values.length / 2)] ?? NaN;
  return [...cpu]
    .map(([name, values]) => `${name}: ${median(values).toFixed(1)} µs per request`)
    .join(', ');
}
