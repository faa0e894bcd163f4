import type { Command } from 'commander';
import { collect } from './collect-flag.ts';
import type { RegisterCommand } from './commands.ts';
import type { HumanFlags } from './human-flags.ts';

/** The flags of `sortie run` as commander parses them. */
export interface RunFlags extends HumanFlags {
  input?: string[];
  var?: string[];
  keepGoing?: boolean;
  chain: boolean;
  stateDir?: string;
  step?: boolean;
  break?: string[];
  record?: string;
  replayModel?: string;
  replayLenient?: boolean;
  mockModel?: string;
  json?: boolean;
  plain?: boolean;
  quiet?: boolean;
  queue?: string;
  otel?: string;
}

/** The debugger's and the model source's options, which `run`, `resume`, `fork` and `chat` share. */
export function withDebugAndModelOptions(command: Command): Command {
  return command
    .option('--step', 'start paused at the first model request or tool call (terminal UI only)')
    .option(
      '--break <SPEC>',
      'breakpoint tool:NAME, actor:ID, model, route, error, stall, loop, cost:USD or tokens:N (repeatable; terminal UI only)',
      collect,
    )
    .option('--record <FILE>', 'write every model request and response to a cassette')
    .option('--replay-model <FILE>', 'answer model requests from a cassette (no network, no key)')
    .option(
      '--replay-lenient',
      'with --replay-model: answer mismatched requests anyway, with a warning',
    )
    .option(
      '--mock-model <FILE>',
      'answer model requests from a file of scripted answers per actor (no network, no key)',
    );
}

/** The options `sortie run`, `resume` and `fork` share. */
export function withRunOptions(command: Command): Command {
  return withDebugAndModelOptions(
    command
      .option(
        '--input <NAME=VALUE>',
        'a mission input (repeatable); files as NAME=@PATH or NAME=base64:DATA[#FILENAME]',
        collect,
      )
      .option('--var <NAME=VALUE>', 'set a variable (repeatable)', collect)
      .option('--keep-going', 'keep running independent tasks after a task fails')
      .option('--no-chain', 'do not follow routes to other missions')
      .option(
        '--state-dir <DIR>',
        'where runs are kept (default: SORTIE_HOME or <project>/.sortie)',
      ),
  )
    .option('--json', 'print events as JSON lines on stdout (the journal schema)')
    .option('--plain', 'print the line log even on a terminal')
    .option('--quiet', 'line log: print only the final summary')
    .option('--no-human', 'agents asking the person get "[no human available]" at once')
    .option('--human-timeout <SECONDS>', 'the longest an agent waits for the person')
    .option('--answer <TEXT>', 'answer the next question to the person (repeatable)', collect)
    .option('--answers <FILE>', 'answers to questions to the person: a JSON or YAML list')
    .option(
      '--queue <URL>',
      'run the items of parallel tasks on workers: redis://HOST:PORT/DB (or SORTIE_QUEUE)',
    )
    .option(
      '--otel <URL>',
      'send the run as OpenTelemetry traces to this OTLP endpoint (or OTEL_EXPORTER_OTLP_ENDPOINT)',
    );
}

/** `sortie run [DIR] [MISSION]`: run a mission with the TUI, the line log or JSONL. */
export const registerRun: RegisterCommand = (program, io, setExitCode) => {
  withRunOptions(
    program
      .command('run')
      .description('run a mission (MISSION may be omitted when the project has exactly one)')
      .argument('[DIR]', 'project directory or .hcl file', '.')
      .argument('[MISSION]', 'the mission to run'),
  ).action(async (directory: string, mission: string | undefined, flags: RunFlags) => {
    const { runCommand } = await import('./run-command.ts');
    setExitCode(await runCommand({ directory, mission, flags }, io));
  });
};
