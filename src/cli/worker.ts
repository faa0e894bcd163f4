import { collect } from './collect-flag.ts';
import type { RegisterCommand } from './commands.ts';

/** The flags of `sortie worker`. */
export interface WorkerFlags {
  queue?: string;
  concurrency: string;
  var?: string[];
  cacheDir?: string;
  lockTimeout: string;
  otel?: string;
}

/** `sortie worker`: run the items of distributed runs (docs/distributed.md). */
export const registerWorker: RegisterCommand = (program, io, setExitCode) => {
  program
    .command('worker')
    .description('take the items of parallel tasks of `sortie run --queue` runs and run them')
    .option('--queue <URL>', 'the queue: redis://HOST:PORT/DB (or SORTIE_QUEUE)')
    .option('--concurrency <N>', 'items run at once', '4')
    .option('--var <NAME=VALUE>', 'set a variable (repeatable): keys stay on this machine', collect)
    .option('--cache-dir <DIR>', 'where project copies and item state go (default: a temp folder)')
    .option(
      '--lock-timeout <SECONDS>',
      'how long an item of a worker that died waits before another worker takes it',
      '30',
    )
    .option(
      '--otel <URL>',
      "send a span per item to this OTLP endpoint, in its run's trace (or OTEL_EXPORTER_OTLP_ENDPOINT)",
    )
    .action(async (flags: WorkerFlags) => {
      const { workerCommand } = await import('./worker-command.ts');
      setExitCode(await workerCommand(flags, io));
    });
};
