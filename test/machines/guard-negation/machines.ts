/**
 * The machines whose guards are rules, by the name docs/machines.md gives them, and the test
 * files that cover each (the guard-negation runner runs those with one guard negated).
 */
import type { AnyStateMachine } from 'xstate';
import { agentMachine } from '../../../src/machines/agent.machine.ts';
import { commanderMachine } from '../../../src/machines/commander.machine.ts';
import { datasetCursorMachine } from '../../../src/machines/dataset-cursor.machine.ts';
import { parallelIterationMachine } from '../../../src/machines/iteration.machine.ts';
import { missionMachine } from '../../../src/machines/mission.machine.ts';
import { sequentialIterationMachine } from '../../../src/machines/sequential-iteration.machine.ts';
import { taskMachine } from '../../../src/machines/task.machine.ts';

/** A machine and the test files (path filters) that cover its rules. */
export interface GuardedMachine {
  machine: AnyStateMachine;
  tests: string[];
}

/** Every machine with named guards, by its name in docs/machines.md. */
export const guardedMachines: Record<string, GuardedMachine> = {
  mission: { machine: missionMachine, tests: ['test/machines/mission'] },
  task: { machine: taskMachine, tests: ['test/machines/task.machine', 'test/machines/mission'] },
  sequentialIteration: {
    machine: sequentialIterationMachine,
    tests: ['test/machines/sequential-iteration'],
  },
  parallelIteration: {
    machine: parallelIterationMachine,
    tests: ['test/machines/iteration.machine'],
  },
  datasetCursor: {
    machine: datasetCursorMachine,
    tests: ['test/machines/dataset-cursor', 'test/machines/commander-sequential'],
  },
  agent: { machine: agentMachine, tests: ['test/machines/agent'] },
  commander: { machine: commanderMachine, tests: ['test/machines/commander'] },
};

/** `machine:guard` for every named guard of every machine, in table order. */
export function everyGuard(): string[] {
  return Object.entries(guardedMachines).flatMap(([name, { machine }]) =>
    Object.keys(machine.implementations.guards).map((guard) => `${name}:${guard}`),
  );
}
