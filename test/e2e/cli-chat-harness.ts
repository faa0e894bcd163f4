/**
 * The chat tests' project and processes: the agent `fetcher` with an HTTP tool, a project
 * folder and a home with its state directory, and the real CLI as a child whose stdin the test
 * types into as a person would.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { CLI_ENV, ROOT, writeProject, type CliResult } from './agent-tools-harness.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';

/** The chat's agent as events and requests name it. */
export const FETCHER = 'agent:chat/fetcher';

/** The agent the chats talk to: `fetcher`, with `builtins.http.get`. */
export const CHAT_HCL = `
agent "fetcher" {
  model       = MODEL
  personality = "You fetch data over HTTP."
  tools       = [builtins.http.get]
}
`;

/** The folders of one chat test and the flags every command of it takes. */
export interface ChatSetUp {
  dir: string;
  stateDir: string;
  /** `--var api_key=… --var base_url=… --state-dir …`. */
  flags: string[];
  env: { SORTIE_HOME: string };
}

/** Writes the chat project (`CHAT_HCL` then `extraHcl`) and makes a home with its state directory. */
export async function setUpChat(baseUrl: string, extraHcl = ''): Promise<ChatSetUp> {
  const dir = await writeProject(CHAT_HCL + extraHcl);
  const home = await temporaryDirectory('chat-home');
  const stateDir = join(home, 'state');
  const flags = [
    '--var',
    'api_key=sk-test-chat',
    '--var',
    `base_url=${baseUrl}`,
    '--state-dir',
    stateDir,
  ];
  return { dir, stateDir, flags, env: { SORTIE_HOME: home } };
}

/** A CLI process whose stdin stays open: the test types lines into it as a person would. */
export interface TypedChild {
  type(line: string): void;
  /** Writes the last text and closes stdin: the end of the person's input. */
  end(text: string): void;
  stdout(): string;
  stderr(): string;
  kill(signal: NodeJS.Signals): void;
  done: Promise<CliResult>;
}

/** Children a failed test left waiting for stdin, until `stopTypedChildren`. */
const running = new Set<TypedChild>();

/** Kills the children a failed test left waiting for stdin (for an afterEach). */
export function stopTypedChildren(): void {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
}

/** `node bin/sortie.js ARGS` with stdin left open for `type` and `end`. */
export function sortieTyped(args: string[], env: Record<string, string | undefined>): TypedChild {
  const child = spawn(process.execPath, ['bin/sortie.js', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...CLI_ENV, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<CliResult>((resolve) =>
    child.on('close', (status) => resolve({ status, stdout, stderr })),
  );
  const typed: TypedChild = {
    type: (line) => child.stdin.write(`${line}\n`),
    end: (text) => child.stdin.end(text),
    stdout: () => stdout,
    stderr: () => stderr,
    kill: (signal) => child.kill(signal),
    done,
  };
  running.add(typed);
  void done.then(() => running.delete(typed));
  return typed;
}

/** `node bin/sortie.js ARGS` with `input` written to its stdin (then closed), to its end. */
export function sortieWithInput(
  args: string[],
  input: string,
  env: Record<string, string | undefined>,
): Promise<CliResult> {
  const child = sortieTyped(args, env);
  child.end(input);
  return child.done;
}

/** The texts of a request's input items (OpenAI Responses): `role: text`, `call NAME`, `result OUTPUT`. */
export function inputTexts(body: unknown): string[] {
  const input = (body as { input: Array<Record<string, unknown>> }).input;
  return input.flatMap((item) => {
    if (item.type === 'function_call') return [`call ${String(item.name)}`];
    if (item.type === 'function_call_output') return [`result ${String(item.output)}`];
    const content = item.content as string | Array<{ text?: string }>;
    const text =
      typeof content === 'string' ? content : content.map((part) => part.text ?? '').join('');
    return [`${String(item.role)}: ${text}`];
  });
}
