/**
 * What one piece of machine work costs in xstate, in CPU: an eventless microstep (an `always`
 * hop through a chooser state), an `assign` (a snapshot clone) and an invoked promise actor
 * (created, started, resolved, its done event taken and the actor stopped on exit). Each
 * variant is a base round (one invoked promise, one `always` chooser) plus two of one piece;
 * the variants run in alternating blocks in one process and the figure is the median block's
 * CPU per round above the base, halved. The machine costs of issue 28 (microsteps and actors
 * per agent tool round) are read against these. `tsx bench/xstate-costs.ts [blocks] [runs]`.
 */
import { assign, createActor, fromPromise, setup, toPromise, type AnyStateMachine } from 'xstate';

const ROUNDS = 10;
const [blocksArg, runsArg] = process.argv.slice(2);
const BLOCKS = Number(blocksArg ?? 8);
const RUNS = Number(runsArg ?? 400);

const base = setup({
  types: { context: {} as { round: number; kept: number[] } },
  actors: { answer: fromPromise(async () => 1) },
  guards: { moreRounds: ({ context }) => context.round < ROUNDS },
  actions: {
    nextRound: assign(({ context }) => ({ round: context.round + 1 })),
    /** An `assign` that changes nothing: the snapshot clone alone. */
    keep: assign(({ context }) => ({ kept: context.kept })),
  },
});
const choosing = {
  always: [{ guard: 'moreRounds', target: 'waiting' }, { target: 'done' }],
} as const;
const context = { round: 0, kept: [] };
const done = { type: 'final' } as const;

/** One invoked promise, then the chooser: the round every variant adds to. */
const baseRound = base.createMachine({
  context,
  initial: 'waiting',
  states: {
    waiting: { invoke: { src: 'answer', onDone: { target: 'choosing', actions: 'nextRound' } } },
    choosing,
    done,
  },
});

/** Two more eventless hops a round. */
const twoMicrosteps = base.createMachine({
  context,
  initial: 'waiting',
  states: {
    waiting: { invoke: { src: 'answer', onDone: { target: 'first', actions: 'nextRound' } } },
    first: { always: { target: 'second' } },
    second: { always: { target: 'choosing' } },
    choosing,
    done,
  },
});

/** Two more `assign`s in the done transition a round. */
const twoAssigns = base.createMachine({
  context,
  initial: 'waiting',
  states: {
    waiting: {
      invoke: {
        src: 'answer',
        onDone: { target: 'choosing', actions: ['nextRound', 'keep', 'keep'] },
      },
    },
    choosing,
    done,
  },
});

/** Two more invoked promise actors a round (each with the microstep its done event takes). */
const twoActors = base.createMachine({
  context,
  initial: 'waiting',
  states: {
    waiting: { invoke: { src: 'answer', onDone: { target: 'second' } } },
    second: { invoke: { src: 'answer', onDone: { target: 'third' } } },
    third: { invoke: { src: 'answer', onDone: { target: 'choosing', actions: 'nextRound' } } },
    choosing,
    done,
  },
});

const variants: Array<[string, AnyStateMachine]> = [
  ['base round', baseRound],
  ['an eventless microstep', twoMicrosteps],
  ['an assign', twoAssigns],
  ['an invoked promise actor', twoActors],
];

async function runToDone(machine: AnyStateMachine): Promise<void> {
  const actor = createActor(machine);
  actor.start();
  await toPromise(actor);
}

for (const [, machine] of variants) for (let run = 0; run < 300; run++) await runToDone(machine);
const perRound: number[][] = variants.map(() => []);
for (let block = 0; block < BLOCKS; block++) {
  for (const [index, [, machine]] of variants.entries()) {
    const start = process.cpuUsage();
    for (let run = 0; run < RUNS; run++) await runToDone(machine);
    const used = process.cpuUsage(start);
    perRound[index]?.push((used.user + used.system) / RUNS / ROUNDS);
  }
}
const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};
const baseCost = median(perRound[0] ?? []);
process.stdout.write(`base round: ${baseCost.toFixed(1)} µs CPU\n`);
for (const [index, [name]] of variants.entries()) {
  if (index === 0) continue;
  const each = (median(perRound[index] ?? []) - baseCost) / 2;
  process.stdout.write(`${name}: ${each.toFixed(1)} µs CPU each\n`);
}
