/**
 * A distributed run's process of its own, for tests that kill it: mission `pages` of the
 * project at ARGV[2] started paused at its step gate (as `sortie run --step --queue` is), its
 * items on the queue at ARGV[4], its journal in ARGV[3] as `sortie run` keeps it. Prints
 * `held RUN_ID` once the gate holds ARGV[6] points, then waits (the test kills it).
 *
 *     node --import tsx test/e2e/queue-gated-run.ts ROOT STATE_DIR REDIS_URL BASE_URL COUNT
 */
import { DebugGate } from '../../src/runtime/gate.ts';
import { lazyJournal } from '../../src/run/lazy-journal.ts';
import { heldPoints, startQueuedRun } from './queue-control-harness.ts';

const [root, stateDir, redisUrl, baseUrl, count] = process.argv.slice(2);
if (root === undefined || stateDir === undefined || redisUrl === undefined) {
  throw new Error('usage: queue-gated-run.ts ROOT STATE_DIR REDIS_URL BASE_URL COUNT');
}
const gate = new DebugGate({ startPaused: true });
const journal = lazyJournal(stateDir, undefined, { fresh: true });
const run = await startQueuedRun({
  root,
  stateDir,
  redisUrl,
  baseUrl: baseUrl ?? '',
  gate,
  subscribers: [journal.subscriber],
});
await heldPoints(gate, Number(count));
process.stdout.write(`held ${run.handle.runId}\n`);
await run.done;
