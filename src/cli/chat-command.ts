/**
 * `sortie chat AGENT [DIR]`: a run whose root is one agent session fed by the person (see
 * actors/chat), shown and journaled by the same wiring as `sortie run`. The person's messages
 * are questions of the run's desk: the TUI's prompt (`a`), or stdin line by line with
 * `--plain` (no TTY), where each reply goes to stdout and the line log to stderr.
 */
import type { AgentCallResult, ChatRoot } from '../actors/contracts.ts';
import { UsageError } from '../base/errors.ts';
import { chatProject } from '../run/chat-mission.ts';
import type { ChatFlags } from './chat.ts';
import type { CliIo } from './io.ts';
import type { RunJournalState } from '../journal/restore.ts';
import {
  executeRun,
  prepareRun,
  processEnvironment,
  type PreparedRun,
  type RunEnvironment,
} from './run-command.ts';
import type { RunFlags } from './run.ts';

/** What `sortie chat` was given. */
export interface ChatRequest {
  agent: string;
  directory: string;
  flags: ChatFlags;
}

/** Talks with one agent from the command line; returns the exit code. */
export async function chatCommand(
  request: ChatRequest,
  io: CliIo,
  environment: RunEnvironment = processEnvironment(),
): Promise<number> {
  const { flags } = request;
  if (flags.json === true && flags.task === undefined) throw jsonNeedsTask();
  if (flags.task !== undefined && flags.task.trim() === '') {
    throw new UsageError('--task needs a message', 'sortie chat AGENT --task "your message"');
  }
  // A chat follows no routes: it has no tasks of its own to route from.
  const runFlags: RunFlags = { ...flags, chain: false };
  const prepared = await prepareRun(
    { directory: request.directory, mission: undefined, flags: runFlags },
    io,
    environment,
    (config) => {
      const chat = chatProject(config, request.agent);
      const root: ChatRoot = {
        agent: chat.agent.name,
        ...(flags.task !== undefined ? { task: flags.task } : {}),
      };
      return Promise.resolve({
        mission: chat.mission,
        inputs: {},
        config: chat.config,
        chat: root,
      });
    },
  );
  return executeChat(prepared, runFlags, io, environment);
}

/**
 * Runs a prepared chat (new, resumed or forked): with `--plain`, each reply on stdout, the line
 * log on stderr and, unless the chat has its one `--task` message, stdin as the person's side.
 */
export function executeChat(
  prepared: PreparedRun,
  flags: RunFlags,
  io: CliIo,
  environment: RunEnvironment,
  resume?: RunJournalState,
  create?: () => Promise<void>,
): Promise<number> {
  if (prepared.mode === 'json' && prepared.chat?.task === undefined) throw jsonNeedsTask();
  if (prepared.mode !== 'plain' || prepared.chat === undefined) {
    return executeRun(prepared, flags, io, environment, resume, create);
  }
  const replied = (reply: AgentCallResult): void => {
    if (reply.ok) io.stdout(`${reply.result}\n`);
    else io.stderr(`the agent did not reply: ${reply.reason}\n`);
  };
  // The line log goes to stderr so that stdout holds the replies alone.
  const logIo: CliIo = { ...io, stdout: io.stderr, stdoutIsTty: io.stderrIsTty };
  const chat: ChatRoot = { ...prepared.chat, replied };
  // Without --task, stdin is the person's side of the conversation, a terminal or not.
  const human =
    chat.task === undefined && flags.human !== false
      ? { ...prepared.human, available: true }
      : prepared.human;
  return executeRun({ ...prepared, chat, human }, flags, logIo, environment, resume, create);
}

function jsonNeedsTask(): UsageError {
  return new UsageError(
    '--json needs --task: stdout carries events, so there is no conversation to type into',
    'sortie chat AGENT --json --task "your message"',
  );
}
