/**
 * A vitest setup file for the guard-negation runner: the guard named in the file that
 * SORTIE_NEGATED_GUARD_FILE points at (`machine:guard`) is replaced by its negation in the
 * machine's own implementations, so every run of that machine in the test file sees it. The
 * runner does not isolate test files (one import of the sources): the setup runs before each
 * file in the same module graph, so it negates once and puts back an earlier run's guard.
 */
import { readFileSync } from 'node:fs';
import { guardedMachines } from './machines.ts';

// xstate's guard signatures vary by guard; the negation passes its arguments through.
type Guard = (...args: never[]) => boolean;
type Guards = Record<string, Guard>;

interface Negated {
  target: string;
  guards: Guards;
  guard: string;
  original: Guard;
}

const holder = globalThis as { negatedGuard?: Negated };
const file = process.env.SORTIE_NEGATED_GUARD_FILE;
const target = file === undefined ? '' : readFileSync(file, 'utf8').trim();
const earlier = holder.negatedGuard;
if (earlier !== undefined && earlier.target !== target) {
  earlier.guards[earlier.guard] = earlier.original;
  delete holder.negatedGuard;
}
if (target !== '' && holder.negatedGuard === undefined) {
  const [name = '', guard = ''] = target.split(':');
  const guards = guardedMachines[name]?.machine.implementations.guards as Guards | undefined;
  const original = guards?.[guard];
  if (guards === undefined || original === undefined) throw new Error(`no guard ${target}`);
  guards[guard] = (...args: never[]) => !original(...args);
  holder.negatedGuard = { target, guards, guard, original };
}
