/**
 * Shared setup of the `builtins.human.ask` end-to-end tests: a project whose agent asks the
 * person a list of questions, and a scripted model server that answers from how far each
 * conversation got (so a resumed run gets the same answers), with a hook on each agent request.
 */
import type { MissionEvent } from '../../src/base/events.ts';
import { ScriptedModelServer, type ScriptTurn } from '../../src/testing/index.ts';
import { cleanUpAll } from './agent-tools-harness.ts';
import type { TmuxTerminal } from './tmux-terminal.ts';

export const ASKER = 'agent:decide/asker';
export const HELPER = 'agent:decide/helper';

/**
 * Two agents in one task: `asker` (with `builtins.human.ask`) and `helper`. With `parallel`,
 * the commander calls both at once, so the helper works while the asker waits.
 */
export const HUMAN_PROJECT = `
agent "asker" {
  model       = MODEL
  personality = "You ask the person."
  tools       = [builtins.human.ask]
}

agent "helper" {
  model       = MODEL
  personality = "You help."
  tools       = [builtins.utils.current_time]
}

mission "choose" {
  commander {
    model = MODEL
  }
  agents = [agents.asker, agents.helper]
  task "decide" {
    objective = "Decide with the person"
  }
}
`;

/** The tool results of an OpenAI Responses request body, in order. */
export function outputsOf(body: unknown): string[] {
  const input = (body as { input: Array<{ type: string; output?: unknown }> }).input;
  return input
    .filter((item) => item.type === 'function_call_output')
    .map((item) => String(item.output));
}

/** What the model server does; `questions` are the asker's `builtins_human_ask` arguments. */
export interface HumanScript {
  questions: Array<Record<string, unknown>>;
  /** The commander calls the helper too, in the same turn as the asker. */
  withHelper?: boolean;
  /** Called with each asker request and how many answers it carries; may delay the reply. */
  onAsker?: (answers: string[]) => { delayMs?: number } | void;
}

/** The commander's turn after `done` tool results. */
function commanderTurn(done: number, script: HumanScript): ScriptTurn | undefined {
  const agents = script.withHelper === true ? ['asker', 'helper'] : ['asker'];
  const steps: ScriptTurn[] = [
    { toolCalls: [{ name: 'set_subtasks', arguments: { subtasks: ['Ask'] } }] },
    {
      toolCalls: agents.map((name) => ({
        name: 'call_agent',
        arguments: { name, task: `${name}: do your part` },
      })),
    },
    { toolCalls: [{ name: 'complete_subtask', arguments: {} }] },
    { toolCalls: [{ name: 'task_complete', arguments: { summary: 'Decided' } }] },
  ];
  // Both agents' results arrive together after the parallel call.
  const index = done <= 1 ? done : done - (agents.length - 1);
  return steps[index];
}

/** What a test started: closed by `closeHumanTest`. */
const started: { servers: ScriptedModelServer[]; terminals: TmuxTerminal[] } = {
  servers: [],
  terminals: [],
};

/** Registers a tmux terminal to close after the test. */
export function closesAfterTest(terminal: TmuxTerminal): TmuxTerminal {
  started.terminals.push(terminal);
  return terminal;
}

/** Closes the test's terminals, model servers and temp dirs (for `afterEach`). */
export async function closeHumanTest(): Promise<void> {
  for (const terminal of started.terminals.splice(0)) terminal.close();
  for (const server of started.servers.splice(0)) await server.close();
  await cleanUpAll();
}

/** A model server playing the commander, the asker and the helper (closed by closeHumanTest). */
export async function startHumanServer(script: HumanScript): Promise<ScriptedModelServer> {
  const server = await ScriptedModelServer.start({
    respond: ({ actor, body }) => {
      const outputs = outputsOf(body);
      if (actor === 'commander:decide') return commanderTurn(outputs.length, script);
      if (actor === HELPER) {
        return outputs.length === 0
          ? { toolCalls: [{ name: 'builtins_utils_current_time', arguments: {} }] }
          : { text: 'The helper is done.' };
      }
      if (actor !== ASKER) return undefined;
      const extra = script.onAsker?.(outputs) ?? {};
      const question = script.questions[outputs.length];
      if (question !== undefined) {
        return { toolCalls: [{ name: 'builtins_human_ask', arguments: question }], ...extra };
      }
      return { text: `The person said: ${outputs.join(' / ')}`, ...extra };
    },
  });
  started.servers.push(server);
  return server;
}

/** The `human.*` events of a journal or `--json` output, without seq, time and duration. */
export function humanEvents(events: readonly MissionEvent[]): Array<Record<string, unknown>> {
  return events
    .filter((event) => event.type.startsWith('human.'))
    .map((event) => {
      const {
        seq: _seq,
        time: _time,
        runId: _runId,
        ...rest
      } = event as unknown as Record<string, unknown>;
      delete rest.durationMs;
      delete rest.callId;
      return rest;
    });
}
