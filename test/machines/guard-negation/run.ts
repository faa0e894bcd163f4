/**
 * Checks that each rule of the machines has a test: every named guard is negated in turn and
 * the test files covering its machine run (one warm vitest, one worker); a guard whose
 * negation no test catches is a rule without a test. Prints the table of docs/machines.md's
 * last column and exits 1 if any guard went uncaught. Not part of the suite (minutes long):
 *   npx tsx test/machines/guard-negation/run.ts [machine[:guard] ...]
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createVitest } from 'vitest/node';
import { everyGuard, guardedMachines } from './machines.ts';

const only = process.argv.slice(2);
const targets = everyGuard().filter(
  (target) => only.length === 0 || only.some((prefix) => target.startsWith(prefix)),
);
const targetFile = join(mkdtempSync(join(tmpdir(), 'sortie-guard-negation-')), 'target');
writeFileSync(targetFile, '');
process.env.SORTIE_NEGATED_GUARD_FILE = targetFile;
/** The tests that failed in the current run, as `file > describe > test`. */
const caughtBy: string[] = [];
const vitest = await createVitest('test', {
  config: 'vitest.config.ts',
  setupFiles: [join(import.meta.dirname, 'negate-guard.setup.ts')],
  watch: false,
  maxWorkers: 1,
  // The sources are imported once, not once per test file (the setup file allows for it).
  isolate: false,
  // One failing test is enough to show the rule is tested.
  bail: 1,
  // Results as they arrive: the state of a test file bail left out is an earlier run's.
  reporters: [
    {
      onTestCaseResult: (test) => {
        if (test.result().state === 'failed')
          caughtBy.push(`${test.module.relativeModuleId} > ${test.fullName}`);
      },
    },
  ],
});
const coveringOf = (target: string): string[] =>
  guardedMachines[target.split(':')[0] ?? '']?.tests ?? [];
// Without a negation the covering tests pass, or a negation's failure would prove nothing.
await vitest.runTestSpecifications(
  await vitest.globTestSpecifications([...new Set(targets.flatMap(coveringOf))]),
);
if (caughtBy.length > 0) {
  console.log(`the covering tests fail without a negation: ${caughtBy.join(', ')}`);
  process.exit(2);
}
const uncaught: string[] = [];
for (const target of targets) {
  writeFileSync(targetFile, target);
  caughtBy.length = 0;
  await vitest.runTestSpecifications(await vitest.globTestSpecifications(coveringOf(target)));
  if (caughtBy.length === 0) uncaught.push(target);
  console.log(`${target}\t${caughtBy[0] ?? 'NOT CAUGHT'}`);
}
await vitest.close();
if (uncaught.length > 0) console.log(`uncaught: ${uncaught.join(', ')}`);
process.exit(uncaught.length > 0 ? 1 : 0);
