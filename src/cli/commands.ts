import type { Command } from 'commander';
import type { CliIo } from './io.ts';
import { registerEval } from './eval.ts';
import { registerAttach } from './attach.ts';
import { registerChat } from './chat.ts';
import { registerExport } from './export.ts';
import { registerFork } from './fork.ts';
import { registerInit } from './init.ts';
import { registerMcp } from './mcp.ts';
import { registerModels } from './models.ts';
import { registerReplay } from './replay-source.ts';
import { registerResume } from './resume.ts';
import { registerRun } from './run.ts';
import { registerDiff, registerRuns, registerShow } from './runs-command.ts';
import { registerServe } from './serve.ts';
import { registerVerify } from './verify.ts';
import { registerWorker } from './worker.ts';

/**
 * A command registers itself on the program. Its action returns the exit code; heavy modules
 * (the config loader, the runtime, Ink) are imported inside the action so start-up stays fast.
 */
export type RegisterCommand = (
  program: Command,
  io: CliIo,
  setExitCode: (code: number) => void,
) => void;

/** Every command, in the order `sortie --help` lists them. Add new commands here. */
export const COMMANDS: readonly RegisterCommand[] = [
  registerRun,
  registerResume,
  registerFork,
  registerChat,
  registerVerify,
  registerModels,
  registerRuns,
  registerShow,
  registerDiff,
  registerReplay,
  registerEval,
  registerExport,
  registerInit,
  registerWorker,
  registerMcp,
  registerServe,
  registerAttach,
];
