import { collect } from './collect-flag.ts';
import type { RegisterCommand } from './commands.ts';
import type { HumanFlags } from './human-flags.ts';
import { withDebugAndModelOptions, type RunFlags } from './run.ts';

/** The flags of `sortie chat` as commander parses them: run's that apply, and `--task`. */
export interface ChatFlags extends Pick<
  RunFlags,
  | keyof HumanFlags
  | 'var'
  | 'stateDir'
  | 'step'
  | 'break'
  | 'record'
  | 'replayModel'
  | 'replayLenient'
  | 'mockModel'
  | 'json'
  | 'plain'
  | 'quiet'
  | 'otel'
> {
  task?: string;
}

/** `sortie chat AGENT [DIR]`: a conversation with one agent of the project, journaled as a run. */
export const registerChat: RegisterCommand = (program, io, setExitCode) => {
  withDebugAndModelOptions(
    program
      .command('chat')
      .description(
        'talk with one agent of the project (its tools, skills and MCP servers), as a run',
      )
      .argument('<AGENT>', 'the agent to talk with')
      .argument('[DIR]', 'project directory or .hcl file', '.')
      .option('--task <TEXT>', 'send this one message, print the reply and exit')
      .option('--var <NAME=VALUE>', 'set a variable (repeatable)', collect)
      .option(
        '--state-dir <DIR>',
        'where runs are kept (default: SORTIE_HOME or <project>/.sortie)',
      ),
  )
    .option('--json', 'print events as JSON lines on stdout (needs --task)')
    .option('--plain', 'read messages line by line from stdin and print each reply on stdout')
    .option('--quiet', 'plain: print only the replies, not the line log')
    .option('--no-human', 'the agent asking the person gets "[no human available]" at once')
    .option('--human-timeout <SECONDS>', 'the longest the agent waits for the person')
    .option('--answer <TEXT>', 'answer the next question to the person (repeatable)', collect)
    .option('--answers <FILE>', 'answers to questions to the person: a JSON or YAML list')
    .option(
      '--otel <URL>',
      'send the chat as OpenTelemetry traces to this OTLP endpoint (or OTEL_EXPORTER_OTLP_ENDPOINT)',
    )
    .action(async (agent: string, directory: string, flags: ChatFlags) => {
      const { chatCommand } = await import('./chat-command.ts');
      setExitCode(await chatCommand({ agent, directory, flags }, io));
    });
};
