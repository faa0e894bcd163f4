/**
 * One agent's conversation inside one commander. `call` runs the agent machine over the
 * conversation with the task appended (a later call continues it); `ask` answers from that
 * conversation in a fork with no tools offered (later questions continue the fork).
 */
import type { Actor } from 'xstate';
import { resolveModel } from '../../config/resolve-model.ts';
import type { AgentConfig } from '../../config/config-types.ts';
import { agentMachine, type AgentResult } from '../../machines/agent.machine.ts';
import { resultFor, textOf, toolCallsOf } from '../../machines/turn-types.ts';
import { reasonOf } from '../../base/reason.ts';
import type {
  Message,
  ReasoningLevel,
  ResolvedModel,
  ToolCallPart,
  ToolDefinition,
} from '../../models/model-types.ts';
import type { ToolOutcome } from '../../machines/turn-types.ts';
import { actorId } from '../../base/events.ts';
import type {
  AgentCallResult,
  AgentSession,
  AgentSessionSpec,
  CreateAgentSession,
  RunServices,
} from '../contracts.ts';
import { userText } from '../commander/conversation-helpers.ts';
import { HUMAN_ASK_TOOL } from '../../tools/builtins/human-ask.ts';
import { holdsStoredResult } from '../../tools/results/index.ts';
import { contextPolicyOf } from '../../runtime/context-window.ts';
import { runToEnd, stopActor, type InvokedBy } from '../run-to-end.ts';
import { agentSampler } from './agent-sampler.ts';
import { toolNoticeReporter } from './agent-tool-notices.ts';
import { AgentToolbox } from './agent-toolbox.ts';
import { JournaledAnswers } from './journaled-answers.ts';
import { SessionEnvironment, type SessionPrompts } from './agent-environment.ts';
import { executeAgentTool, holdAgentTool, type AgentToolRunner } from './execute-agent-tool.ts';
import { agentSystemPrompt, withLoadedSkills } from './system-prompt.ts';
import { skillsOutsideConversation } from '../../machines/agent-skills.ts';
import {
  closeInterruptedCalls,
  endOfCall,
  INTERRUPTED_BY_RESTART,
} from '../resume/interrupted-calls.ts';

/** Why an agent call ends without an answer when its caller cancels it. */
const CALL_CANCELLED = 'the agent call was cancelled';

/** Creates the session of `spec.agent` for one commander of `spec.task` (item `spec.index`). */
export const createAgentSession: CreateAgentSession = (services, spec) =>
  new ConversationSession(services, spec);

/** What the model turns of one session share. */
interface TurnSetup {
  model: ResolvedModel;
  reasoning: ReasoningLevel | undefined;
}

class ConversationSession implements AgentSession, SessionPrompts {
  readonly agent: AgentConfig;
  readonly actorId: string;
  private finished: boolean;
  private conversation: Message[];
  /** The fork's own questions and answers; the fork is the conversation followed by these. */
  private readonly forkMessages: Message[] = [];
  private readonly system: string;
  private readonly toolbox: AgentToolbox;
  private readonly runner: AgentToolRunner;
  /** The run's askers, answering a resumed call's questions from the journal. */
  private readonly human: JournaledAnswers;
  private setup: TurnSetup | undefined;
  /** Skills loaded so far, in load order: the next call starts with them. */
  private loadedSkills: string[];
  /** Calls and questions run one at a time, in the order they were made. */
  private tail: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly services: RunServices,
    private readonly spec: AgentSessionSpec,
  ) {
    this.agent = spec.agent;
    this.actorId = actorId.agent(spec.task, spec.agent.name, spec.index);
    this.conversation = [...(spec.restored?.messages ?? [])];
    // A restored conversation has had at least one call: its agent can be asked about it.
    this.finished = this.conversation.length > 0;
    const secrets = Object.fromEntries(services.secrets);
    const sampler = agentSampler(services.runModelTurn, {
      actor: this.actorId,
      task: spec.task,
      model: () => this.turnSetup(),
    });
    const notify = toolNoticeReporter(services.bus, this.actorId, services.redact);
    this.human = new JournaledAnswers(services.human, spec.restored);
    this.toolbox = new AgentToolbox(
      spec.agent,
      { ...services, human: this.human, secrets, sampler, notify },
      this.actorId,
    );
    // A restored agent has the skills it had loaded (the journal knows them, not the messages).
    const skillNames = new Set(this.toolbox.skillEntries().map((skill) => skill.name));
    this.loadedSkills = (spec.restored?.loadedSkills ?? []).filter((name) => skillNames.has(name));
    // A restored agent that had received a stored large result keeps the tools to page it.
    if (holdsStoredResult(this.conversation)) this.toolbox.addResultTools();
    this.system = agentSystemPrompt(spec.agent, {
      config: services.config,
      mission: services.mission,
      datasets: services.datasets,
      slots: services.slots,
      secretNames: [...services.secrets.keys()],
    });
    this.runner = {
      actor: this.actorId,
      bus: services.bus,
      gate: services.gate,
      results: services.results,
      toolbox: this.toolbox,
      redact: services.redact,
      thresholdBytes: spec.agent.toolResponseMaxTokens * 4,
    };
  }

  get finishedOnce(): boolean {
    return this.finished;
  }

  messages(): readonly Message[] {
    return this.conversation;
  }

  call(task: string, by: InvokedBy): Promise<AgentCallResult> {
    return this.exclusive(async () => {
      try {
        return await this.runCall(task, by);
      } finally {
        this.finished = true;
      }
    });
  }

  resumeCall(opening: number, by: InvokedBy): Promise<AgentCallResult> {
    return this.exclusive(async () => {
      try {
        return await this.continueCall(opening, by);
      } finally {
        this.finished = true;
      }
    });
  }

  ask(question: string, signal: AbortSignal): Promise<AgentCallResult> {
    return this.exclusive(() => this.runQuestion(question, signal));
  }

  private async runCall(task: string, by: InvokedBy): Promise<AgentCallResult> {
    const unprepared = await this.prepare(by.signal);
    if (unprepared !== undefined) return unprepared;
    this.append(this.actorId, this.conversation, userText(task));
    return this.runMachine(by);
  }

  /** The call that `opening` started: its answer if it had one, else the agent continues. */
  private async continueCall(opening: number, by: InvokedBy): Promise<AgentCallResult> {
    const { signal } = by;
    const end = endOfCall(this.conversation, opening);
    const last = this.conversation[end - 1];
    if (last?.role === 'assistant' && toolCallsOf(last).length === 0) {
      return { ok: true, result: textOf(last) };
    }
    // Only the conversation's last call can go on; an earlier one ended without an answer.
    if (end < this.conversation.length) return { ok: false, reason: INTERRUPTED_BY_RESTART };
    const unprepared = await this.prepare(signal);
    if (unprepared !== undefined) return unprepared;
    const restored = this.spec.restored;
    if (restored !== undefined) {
      // A question to the person that had no answer yet is asked again; an answered one
      // gets its journaled answer (as every finished call gets its result). A tool whose MCP
      // server was asking the person is called again: the server asks again.
      const closing = await closeInterruptedCalls(this.conversation, restored, async (call) =>
        restored.toolResult(call.id) === undefined &&
        (call.name === HUMAN_ASK_TOOL || restored.serverAsked?.(call.id) === true)
          ? resultFor(call, await this.askAgain(call, signal))
          : undefined,
      );
      if (closing !== null) this.append(this.actorId, this.conversation, closing);
    }
    return this.runMachine(by);
  }

  /**
   * Runs the agent machine over the conversation until the agent answers or stops, as a child
   * of `by.parent` (the commander's tool call), in the run's actor system.
   */
  private async runMachine(by: InvokedBy): Promise<AgentCallResult> {
    const { signal } = by;
    // Set by `created` before the machine starts (with `windDown` it always starts).
    let actor!: Actor<typeof agentMachine>;
    let result: AgentResult | undefined;
    try {
      result = await runToEnd(
        agentMachine,
        {
          messages: this.conversation,
          maxTurns: this.agent.maxTurns,
          skills: this.toolbox.skillEntries(),
          loadedSkills: this.loadedSkills,
          context: contextPolicyOf(this.agent),
          parallelToolCalls: this.agent.parallelToolCalls,
          environment: this.environmentFor(),
        },
        signal,
        CALL_CANCELLED,
        {
          parent: by.parent,
          // A cancelled call stops the machine, whose stop aborts its actors' own signals: one
          // listener per call instead of every model turn and tool call combining two signals.
          windDown: stopActor,
          created: (created) => (actor = created),
        },
      );
    } catch (error) {
      // A defect inside the machine: keep what the conversation reached and report it.
      const { context } = actor.getSnapshot();
      this.conversation = [...context.messages];
      this.loadedSkills = [...context.loadedSkills];
      this.closeOpenCalls(this.actorId, this.conversation, reasonOf(error));
      return { ok: false, reason: reasonOf(error) };
    }
    // A stopped machine has no output: the call ends with what its conversation reached.
    const { context } = actor.getSnapshot();
    this.conversation = [...(result?.messages ?? context.messages)];
    this.loadedSkills = [...(result?.loadedSkills ?? context.loadedSkills)];
    if (result !== undefined && result.answer !== null) return { ok: true, result: result.answer };
    const reason =
      result === undefined
        ? CALL_CANCELLED
        : (result.failure?.reason ?? 'the agent stopped without an answer');
    // An aborted call ends with its task (or the run): nothing more is reported after it.
    this.closeOpenCalls(this.actorId, this.conversation, reason, { report: !signal.aborted });
    return { ok: false, reason };
  }

  private async runQuestion(question: string, signal: AbortSignal): Promise<AgentCallResult> {
    const forkId = actorId.fork(this.actorId);
    try {
      const setup = this.turnSetup();
      this.append(forkId, this.forkMessages, userText(question));
      const { response } = await this.services.runModelTurn({
        actor: forkId,
        task: this.spec.task,
        model: setup.model,
        ...(setup.reasoning !== undefined ? { reasoning: setup.reasoning } : {}),
        system: this.systemFor([...this.conversation, ...this.forkMessages], this.loadedSkills),
        messages: [...this.conversation, ...this.forkMessages],
        tools: [],
        signal,
      });
      this.append(forkId, this.forkMessages, response.message);
      // No tools are offered, but a model may still call one; the fork must stay a valid transcript.
      this.closeOpenCalls(forkId, this.forkMessages, 'no tools are available for questions');
      return { ok: true, result: textOf(response.message) };
    } catch (error) {
      return { ok: false, reason: reasonOf(error) };
    }
  }

  /** This session's model turns, step gate and tools, for one call of the agent machine. */
  private environmentFor(): SessionEnvironment {
    const setup = this.turnSetup();
    const turns = {
      runModelTurn: this.services.runModelTurn,
      task: this.spec.task,
      model: setup.model,
      reasoning: setup.reasoning,
      parallelToolCalls: this.agent.parallelToolCalls,
      prompts: this,
    };
    return new SessionEnvironment(turns, this.runner);
  }

  /**
   * A call cut short by a restart while asking the person, made again (through the step gate);
   * the questions answered before the restart get their journaled answers.
   */
  private async askAgain(call: ToolCallPart, signal: AbortSignal): Promise<ToolOutcome> {
    await holdAgentTool(this.runner, call, signal);
    return this.human.repeat(call.id, () => executeAgentTool(this.runner, call, signal));
  }

  /** Resolves the model and starts the agent's MCP servers; the call's end if either fails. */
  private async prepare(signal: AbortSignal): Promise<AgentCallResult | undefined> {
    try {
      this.turnSetup();
      await this.toolbox.prepare(signal);
      return undefined;
    } catch (error) {
      return { ok: false, reason: reasonOf(error) };
    }
  }

  /** The tools offered with these skills loaded: result tools join after the first interception. */
  toolsFor(loadedSkills: readonly string[] | undefined): ToolDefinition[] {
    return this.toolbox.definitions(loadedSkills);
  }

  /** The system prompt, with the loaded skills the conversation no longer holds. */
  systemFor(messages: readonly Message[], loadedSkills: readonly string[]): string {
    const skills = this.toolbox.skillEntries();
    return withLoadedSkills(
      this.system,
      skillsOutsideConversation({ skills, loadedSkills }, messages),
    );
  }

  /** The resolved model and the reasoning level to send (only to reasoning-capable models). */
  private turnSetup(): TurnSetup {
    if (this.setup === undefined) {
      const model = resolveModel(this.services.config, this.agent.model);
      const reasoning = model.reasoningCapable ? this.agent.reasoning : undefined;
      this.setup = { model, reasoning };
    }
    return this.setup;
  }

  /**
   * Tool calls left without results (a cancelled call, a tool called in the no-tools fork)
   * get error results: every call must have one before the transcript goes to a model again.
   */
  private closeOpenCalls(
    conversationId: string,
    target: Message[],
    reason: string,
    { report }: { report: boolean } = { report: true },
  ): void {
    const last = target.at(-1);
    if (last === undefined || last.role !== 'assistant') return;
    const calls = toolCallsOf(last);
    if (calls.length === 0) return;
    const results: Message = {
      role: 'user',
      parts: calls.map((call) => ({
        type: 'tool_result',
        callId: call.id,
        name: call.name,
        content: JSON.stringify({ status: 'error', error: `not executed: ${reason}` }),
        isError: true,
      })),
    };
    if (report) this.append(conversationId, target, results);
    else target.push(results);
  }

  private append(conversationId: string, target: Message[], message: Message): void {
    target.push(message);
    this.services.bus.emit({
      type: 'message.appended',
      // A fork's messages are the fork's own events (`agent:x/y#fork`).
      actor: conversationId,
      conversation: conversationId,
      message,
    });
  }

  private exclusive<T>(job: () => Promise<T>): Promise<T> {
    const run = this.tail.then(job, job);
    this.tail = run.catch(() => undefined);
    return run;
  }
}
