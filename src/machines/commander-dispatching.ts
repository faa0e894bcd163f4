/**
 * How the calls of a reply reach what answers them. An internal call is raised as its
 * `tool.<name>` event for the `dispatching` state's rules. External calls run as a batch of
 * spawned `toolCall` children: consecutive valid `call_agent` calls form one batch whose lanes
 * are the agents (lanes run concurrently, calls within a lane one after another); every other
 * external call is a batch of its own. Results join the reply's in call order.
 */
import type { Message, ToolResultPart } from '../models/model-types.ts';
import { toolResult } from '../tools/tool-result.ts';
import type {
  BatchEntry,
  CommanderContext,
  InternalToolEvent,
  QueuedCall,
  ToolCallDone,
} from './commander-context.ts';
import { commanderAction, EXTERNAL_TOOLS, headOf } from './commander-context.ts';
import { resultFor, type ToolOutcome } from './turn-types.ts';

/** The `toolCall` child of one external call of the batch; its result comes back by its id. */
function toolCallChild(context: CommanderContext, entry: BatchEntry) {
  const input = { call: entry.call, args: entry.args, environment: context.environment };
  return { id: entry.actorId, input };
}

function isRunnableAgentCall(queued: QueuedCall): boolean {
  return queued.call.name === 'call_agent' && queued.parsed !== null && queued.parsed.ok;
}

/** Takes the batch starting at the head of the queue; the first call of each lane starts. */
export function openBatch(context: CommanderContext): { batch: BatchEntry[]; rest: QueuedCall[] } {
  const [head] = context.queue;
  if (head === undefined) return { batch: [], rest: [] };
  let size = 1;
  if (isRunnableAgentCall(head)) {
    while (size < context.queue.length && isRunnableAgentCall(context.queue[size] as QueuedCall))
      size += 1;
  }
  const lanesStarted = new Set<string>();
  const batch = context.queue.slice(0, size).map((queued, position): BatchEntry => {
    const args = queued.parsed !== null && queued.parsed.ok ? queued.parsed.args : {};
    const lane =
      queued.call.name === 'call_agent' ? `agent:${String(args.name)}` : `call:${position}`;
    const started = !lanesStarted.has(lane);
    lanesStarted.add(lane);
    return {
      call: queued.call,
      args,
      lane,
      actorId: `tool:${context.turns}:${context.results.length + position}`,
      started,
      result: null,
    };
  });
  return { batch, rest: context.queue.slice(size) };
}

/** The next call of the same lane still waiting to start, after the one at `position`. */
export function laneSuccessor(batch: readonly BatchEntry[], position: number): number | undefined {
  const lane = batch[position]?.lane;
  const index = batch.findIndex(
    (entry, candidate) => candidate > position && entry.lane === lane && !entry.started,
  );
  return index === -1 ? undefined : index;
}

/** A batch call's result: the id of its `toolCall` child and what it resolved with. */
export interface BatchDone {
  id: string;
  output: ToolOutcome;
}

/** The done event of a `toolCall` child, as the params of a guard or an action. */
export const batchDoneOf = ({ event }: { event: ToolCallDone }): BatchDone => ({
  id: event.actorId,
  output: event.output,
});

/**
 * The batch entry a result is for, the result part, and the limits after it (the first stored
 * large result brings the result tools to the next request); undefined for an unknown id.
 */
function arrivedResult(context: CommanderContext, done: BatchDone) {
  const position = context.batch.findIndex((entry) => entry.actorId === done.id);
  const finished = context.batch[position];
  if (finished === undefined) return undefined;
  const limits =
    done.output.stored === true && !context.limits.resultTools
      ? { ...context.limits, resultTools: true }
      : context.limits;
  return { position, finished, result: resultFor(finished.call, done.output), limits };
}

/** The actions that start, collect and close a batch of external calls, and hand an internal call to its transition. */
export const dispatchingActions = {
  /** The head (internal) call as its `tool.<name>` event, taken by `dispatching`. */
  dispatchHead: commanderAction(({ context, enqueue }) => {
    const { call } = headOf(context);
    enqueue.raise({ type: `tool.${call.name}` as InternalToolEvent['type'], callId: call.id });
  }),
  /** A failure mid-batch still gives every call its one result before the commander stops. */
  closeOpenCalls: commanderAction(({ context, enqueue }) => {
    const reason = context.failure?.reason ?? 'the commander stopped';
    const outcome = { content: toolResult.error(`not executed: ${reason}`), isError: true };
    const finished = context.batch.flatMap((entry) =>
      entry.result === null ? [] : [entry.result],
    );
    const unfinished = [
      ...context.batch.filter((entry) => entry.result === null),
      ...context.queue,
    ];
    const closed = unfinished.map((open) => resultFor(open.call, outcome));
    const message: Message = {
      role: 'user',
      parts: [...context.results, ...finished, ...closed],
    };
    enqueue.assign({
      messages: [...context.messages, message],
      results: [],
      batch: [],
      queue: [],
    });
    for (const result of closed) {
      const open = unfinished.find((candidate) => candidate.call.id === result.callId);
      if (open !== undefined)
        enqueue({ type: 'emitToolCompleted', params: { call: open.call, result } });
    }
    enqueue({ type: 'emitMessageAppended', params: { message } });
  }),
  startBatch: commanderAction(({ context, enqueue }) => {
    const { batch, rest } = openBatch(context);
    enqueue.assign({ batch, queue: rest });
    for (const entry of batch.filter((candidate) => candidate.started)) {
      enqueue({ type: 'emitToolCalled', params: { call: entry.call } });
      enqueue.spawnChild('toolCall', toolCallChild(context, entry));
    }
  }),
  recordBatchResult: commanderAction<BatchDone>(({ context, enqueue }, params) => {
    const arrived = arrivedResult(context, params);
    if (arrived === undefined) return;
    const { position, finished, result } = arrived;
    const successor = laneSuccessor(context.batch, position);
    const batch = context.batch.map((entry, index) => {
      if (index === position) return { ...entry, result };
      if (index === successor) return { ...entry, started: true };
      return entry;
    });
    enqueue.assign({ batch, limits: arrived.limits });
    enqueue.stopChild(finished.actorId);
    enqueue({ type: 'emitToolCompleted', params: { call: finished.call, result } });
    const next = successor === undefined ? undefined : batch[successor];
    if (next === undefined) return;
    enqueue({ type: 'emitToolCalled', params: { call: next.call } });
    enqueue.spawnChild('toolCall', toolCallChild(context, next));
  }),
  /** The batch's last result: the batch's results join the reply's, in call order. */
  finishBatch: commanderAction<BatchDone>(({ context, enqueue }, params) => {
    const arrived = arrivedResult(context, params);
    if (arrived === undefined) return;
    const { position, finished, result } = arrived;
    const batchResults = context.batch.map((entry, index) =>
      index === position ? result : (entry.result as ToolResultPart),
    );
    enqueue.assign({
      results: [...context.results, ...batchResults],
      batch: [],
      limits: arrived.limits,
    });
    enqueue.stopChild(finished.actorId);
    enqueue({ type: 'emitToolCompleted', params: { call: finished.call, result } });
  }),
};

/** The dispatching guards. */
export const dispatchingGuards = {
  headIsExternal: ({ context }: { context: CommanderContext }) =>
    EXTERNAL_TOOLS.has(headOf(context).call.name),
  /** `event` is the result of the batch's last open call. */
  finishesBatch: ({ context }: { context: CommanderContext }, event: BatchDone) =>
    context.batch.every((entry) =>
      entry.actorId === event.id ? entry.result === null : entry.result !== null,
    ) && context.batch.some((entry) => entry.actorId === event.id),
};
