/**
 * The agent machine alone, with I/O that answers at once: CPU per model request of the machine
 * of each tree given, in alternating blocks in one process, so the machines' own cost can be
 * compared without the rest of a run. `tsx bench/agent-machine-ab.ts <blocks> <runs> <calls>
 * <module>...`: each module's `agentMachine` (all share one
 * xstate).
 */
import { createActor, toPromise, type AnyStateMachine } from 'xstate';

const [blocksArg, runsArg, callsArg, ...trees] = process.argv.slice(2);
const BLOCKS = Number(blocksArg ?? 10);
const RUNS = Number(runsArg ?? 200);
const CALLS = Number(callsArg ?? 10);

interface Part {
  type: string;
  [key: string]: unknown;
}
interface Msg {
  role: string;
  parts: Part[];
}

/** A reply with one call until `CALLS` results are in the conversation, then the answer. */
function replyTo(messages: Msg[]): { message: Msg; stopReason: string } {
  const done = messages.filter((message) =>
    message.parts.some((part) => part.type === 'tool_result'),
  ).length;
  if (done >= CALLS)
    return {
      message: { role: 'assistant', parts: [{ type: 'text', text: 'done' }] },
      stopReason: 'end_turn',
    };
  return {
    message: {
      role: 'assistant',
      parts: [{ type: 'tool_call', id: `c${done}`, name: 'lookup', arguments: { n: done } }],
    },
    stopReason: 'tool_use',
  };
}

// The I/O of every tree's machine: d6718fa's reports through `messageAppended` and
// `contextCut`, main's through `bus`.
const environment = {
  conversation: 'agent:bench',
  bus: { emit: () => undefined },
  modelTurn: async (input: { messages: Msg[] }) => replyTo(input.messages),
  holdCall: async () => undefined,
  holdFailures: async () => undefined,
  executeTool: async () => ({ content: 'figure', isError: false }),
  messageAppended: () => undefined,
  contextCut: () => undefined,
};

async function oneRun(machine: AnyStateMachine): Promise<void> {
  const actor = createActor(machine, {
    input: { messages: [{ role: 'user', parts: [{ type: 'text', text: 'go' }] }], environment },
  });
  actor.start();
  const output = (await toPromise(actor)) as { answer: string | null };
  if (output.answer !== 'done') throw new Error('bench run failed');
}

const machines: AnyStateMachine[] = [];
for (const tree of trees) {
  const module = (await import(tree)) as {
    agentMachine: AnyStateMachine;
  };
  machines.push(module.agentMachine);
}
for (const machine of machines) for (let run = 0; run < 50; run++) await oneRun(machine);

const perRequest: number[][] = machines.map(() => []);
for (let block = 0; block < BLOCKS; block++) {
  for (const [index, machine] of machines.entries()) {
    const start = process.cpuUsage();
    for (let run = 0; run < RUNS; run++) await oneRun(machine);
    const used = process.cpuUsage(start);
    perRequest[index]?.push((used.user + used.system) / RUNS / (CALLS + 1));
  }
}
const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};
for (const [index, tree] of trees.entries()) {
  const values = perRequest[index] ?? [];
  const differences = values.map((value, block) => value - (perRequest[0]?.[block] ?? NaN));
  process.stdout.write(
    `${tree}: ${median(values).toFixed(1)} µs CPU per request (median of ${BLOCKS} blocks), ${median(differences).toFixed(1)} µs above the first tree; fastest block ${Math.min(...values).toFixed(1)} µs\n`,
  );
}
