/** The commander machine's effect actions as run events (plan, tools, output, messages). */
import type { CommanderEffects } from '../../machines/commander-io.ts';
import type { Message } from '../../models/model-types.ts';
import type { EventBus } from '../../runtime/event-bus.ts';
import type {
  ContextCutParams,
  MessageAppendedParams,
  OutputSubmittedParams,
  PlanUpdatedParams,
  ToolCalledParams,
  ToolCompletedParams,
} from '../../machines/effect-params.ts';

/** Emits the events of one commander; `task` is the task name events carry. */
export function commanderEffects(bus: EventBus, actor: string, task: string): CommanderEffects {
  const started = new Map<string, number>();
  return {
    planUpdated: (params: PlanUpdatedParams) => {
      bus.emit({
        type: 'plan.updated',
        actor,
        task,
        index: params.index,
        subtasks: (params.plan ?? []).map((subtask) => ({ ...subtask })),
      });
    },
    toolCalled: (params: ToolCalledParams) => {
      started.set(params.call.id, performance.now());
      bus.emit({
        type: 'tool.called',
        actor,
        callId: params.call.id,
        tool: params.call.name,
        arguments: params.call.arguments,
      });
    },
    toolCompleted: (params: ToolCompletedParams) => {
      const start = started.get(params.call.id);
      started.delete(params.call.id);
      const content = params.result.content;
      bus.emit({
        type: 'tool.completed',
        actor,
        callId: params.call.id,
        tool: params.call.name,
        result: typeof content === 'string' ? content : JSON.stringify(content),
        isError: params.result.isError,
        durationMs: start === undefined ? 0 : Math.round(performance.now() - start),
      });
    },
    outputSubmitted: (params: OutputSubmittedParams) => {
      bus.emit({
        type: 'output.submitted',
        actor,
        task,
        index: params.index,
        output: params.output,
        replaced: params.replaced,
      });
    },
    messageAppended: (params: MessageAppendedParams) => {
      emitMessage(bus, actor, params.message);
    },
    contextCut: ({ cut }: ContextCutParams) => {
      bus.emit({ type: 'context.compacted', actor, conversation: actor, ...cut });
    },
  };
}

/** `message.appended` for a commander's own conversation. */
export function emitMessage(bus: EventBus, actor: string, message: Message): void {
  bus.emit({ type: 'message.appended', actor, conversation: actor, message });
}
