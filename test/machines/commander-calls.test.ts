import { describe, expect, it } from 'vitest';
import type { ExecuteToolInput } from '../../src/machines/commander-io.ts';
import type { ToolOutcome } from '../../src/machines/turn-types.ts';
import {
  call,
  plainTask,
  reply,
  resultsAfterTurn,
  ruleState,
  runCommander,
  toolResults,
} from './commander-harness.ts';

const plan = call('set_subtasks', { subtasks: ['Research'] });
const agentCall = (name: string, task: string) => call('call_agent', { name, task });

function deferred() {
  let resolve: () => void = () => {};
  const promise = new Promise<void>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

const answer = (name: string, task: string): ToolOutcome => ({
  content: JSON.stringify({ status: 'ok', agent: name, result: `did ${task}` }),
  isError: false,
});

describe('commander tool calls', () => {
  it('answers an unknown tool with the available tools', async () => {
    const run = await runCommander([reply(call('browse_web', { url: 'x' }))], {
      task: { hasAgents: false, hasAskableAgents: false, hasAncestors: false },
    });
    expect(resultsAfterTurn(run.result.messages, 1)).toEqual([
      {
        status: 'error',
        error:
          'unknown tool "browse_web"; available: set_subtasks, get_subtasks, complete_subtask, task_complete',
      },
    ]);
    expect(toolResults(run.result.messages)[0]?.isError).toBe(true);
  });

  it('suggests only a tool the commander can call for an unknown one', async () => {
    const run = await runCommander(
      [reply(call('call_agent', { name: 'researcher', task: 'x' }), call('get_subtask'))],
      { task: { hasAgents: false, hasAskableAgents: false, hasAncestors: false } },
    );
    expect(resultsAfterTurn(run.result.messages, 1)).toEqual([
      {
        status: 'error',
        error:
          'unknown tool "call_agent"; available: set_subtasks, get_subtasks, complete_subtask, task_complete',
      },
      {
        status: 'error',
        error:
          'unknown tool "get_subtask" (did you mean "get_subtasks"?); available: set_subtasks, get_subtasks, complete_subtask, task_complete',
      },
    ]);
  });

  it('answers malformed JSON arguments with one problem and changes nothing', async () => {
    const run = await runCommander([
      reply(call('set_subtasks', '{"subtasks": ["A"')),
      reply(call('get_subtasks')),
    ]);
    const [body] = resultsAfterTurn(run.result.messages, 1) as Array<{ problems: string[] }>;
    expect(body?.problems).toHaveLength(1);
    expect(body?.problems[0]).toMatch(/^\/: arguments are not valid JSON: /);
    expect(ruleState(run.contexts[1]!)).toEqual(ruleState(run.contexts[0]!));
  });

  it('gives every call exactly one result, in call order, with matching ids', async () => {
    const calls = [
      plan,
      call('get_subtasks'),
      call('nope'),
      agentCall('researcher', 'dig'),
      call('complete_subtask'),
    ];
    const run = await runCommander([reply(...calls)]);
    expect(toolResults(run.result.messages).map((result) => result.callId)).toEqual(
      calls.map((part) => part.id),
    );
  });

  it('passes external calls with their validated arguments to executeTool and returns its result', async () => {
    const run = await runCommander([reply(plan, agentCall('researcher', 'dig'))], {
      executeTool: async ({ call: toolCall, args }) =>
        answer(String(args.name), `${toolCall.name} ${String(args.task)}`),
    });
    expect(run.executed.map((input) => input.args)).toEqual([{ name: 'researcher', task: 'dig' }]);
    expect(resultsAfterTurn(run.result.messages, 1)[1]).toEqual({
      status: 'ok',
      agent: 'researcher',
      result: 'did call_agent dig',
    });
  });

  it('runs call_agent to different agents concurrently and returns results in call order', async () => {
    const log: string[] = [];
    const firstMayFinish = deferred();
    // Only a fallback so a sequential implementation fails on the order, not by hanging.
    const fallback = setTimeout(firstMayFinish.resolve, 500);
    const executeTool = async ({ args }: ExecuteToolInput) => {
      const name = String(args.name);
      log.push(`start ${name}`);
      if (name === 'researcher') await firstMayFinish.promise;
      else firstMayFinish.resolve();
      log.push(`end ${name}`);
      return answer(name, String(args.task));
    };
    const run = await runCommander(
      [reply(plan, agentCall('researcher', 'dig'), agentCall('writer', 'draft'))],
      {
        executeTool,
      },
    );
    clearTimeout(fallback);
    expect(log).toEqual(['start researcher', 'start writer', 'end writer', 'end researcher']);
    expect(resultsAfterTurn(run.result.messages, 1).slice(1)).toEqual([
      { status: 'ok', agent: 'researcher', result: 'did dig' },
      { status: 'ok', agent: 'writer', result: 'did draft' },
    ]);
  });

  it('runs call_agent to the same agent one after another', async () => {
    const log: string[] = [];
    const executeTool = async ({ args }: ExecuteToolInput) => {
      log.push(`start ${String(args.name)} ${String(args.task)}`);
      await Promise.resolve();
      log.push(`end ${String(args.name)} ${String(args.task)}`);
      return answer(String(args.name), String(args.task));
    };
    const run = await runCommander(
      [
        reply(
          plan,
          agentCall('researcher', 'one'),
          agentCall('researcher', 'two'),
          agentCall('writer', 'three'),
        ),
      ],
      { executeTool },
    );
    const endOne = log.indexOf('end researcher one');
    const startTwo = log.indexOf('start researcher two');
    expect(endOne).toBeGreaterThanOrEqual(0);
    expect(startTwo).toBeGreaterThan(endOne);
    expect(log.indexOf('start writer three')).toBeLessThan(endOne);
    expect(resultsAfterTurn(run.result.messages, 1).slice(1)).toEqual([
      { status: 'ok', agent: 'researcher', result: 'did one' },
      { status: 'ok', agent: 'researcher', result: 'did two' },
      { status: 'ok', agent: 'writer', result: 'did three' },
    ]);
  });

  it('runs other external tools in order, one at a time', async () => {
    const log: string[] = [];
    const task = { ...plainTask, hasAncestors: true };
    const executeTool = async ({ call: toolCall }: ExecuteToolInput) => {
      log.push(`start ${toolCall.name}`);
      await Promise.resolve();
      log.push(`end ${toolCall.name}`);
      return { content: '{"status":"ok"}', isError: false };
    };
    await runCommander(
      [
        reply(
          plan,
          call('query_task_output', { task: 'fetch' }),
          call('list_commander_questions', { task_name: 'fetch' }),
        ),
      ],
      { task, executeTool },
    );
    expect(log).toEqual([
      'start query_task_output',
      'end query_task_output',
      'start list_commander_questions',
      'end list_commander_questions',
    ]);
  });

  it('fails the commander when executeTool rejects (infrastructure failure)', async () => {
    const reason = 'budget exceeded: task "x" used 10,412 of 10,000 tokens';
    const run = await runCommander(
      [reply(plan, agentCall('researcher', 'dig'), call('get_subtasks'))],
      {
        executeTool: async () => {
          throw new Error(reason);
        },
      },
    );
    expect(run.result.failure?.reason).toBe(reason);
    expect(run.result.completion).toBeNull();
    // The transcript still has one result per call.
    expect(resultsAfterTurn(run.result.messages, 1)).toEqual([
      { status: 'ok', subtasks: [{ index: 0, title: 'Research', status: 'in_progress' }] },
      { status: 'error', error: `not executed: ${reason}` },
      { status: 'error', error: `not executed: ${reason}` },
    ]);
  });
});
