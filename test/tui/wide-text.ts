/**
 * A run whose names and texts are wide: task `調査` (CJK, two columns a character), a model
 * named in CJK, an agent answer with CJK and emoji, and a commander that writes
 * `complete_subtask` and `1 message` where a character-count wrap would cut them.
 */
import type { MissionEvent } from '../../src/base/events.ts';
import { testBus } from './fixture.ts';

const usage = { input: 1_204, output: 37, cacheRead: 0, cacheWrite: 0, reasoning: 0 };
const WIDE_MODEL = {
  provider: 'openai' as const,
  config: '東京',
  key: '天気予報モデル',
  apiName: 'm',
};
const PLAIN_MODEL = { provider: 'openai' as const, config: 'main', key: 'fast', apiName: 'f' };

/** The commander's words, laid out so that a 40-column hard wrap splits both phrases. */
export const COMMANDER_TEXT =
  'The commander will now call complete_subtask. Summarise the answer of 調査 in 1 message.';
/** The agent's answer: CJK and emoji. */
export const AGENT_TEXT = '東京の天気は晴れ🌞、気温は二十度です。明日は雨☔の予報です。🎉🎉🎉';

export function wideEvents(): MissionEvent[] {
  const bus = testBus('run-wide');
  const events: MissionEvent[] = [];
  bus.subscribe((event) => events.push(event));
  bus.emit({ type: 'run.started', actor: 'run', mission: '天気', resumed: false });
  bus.emit({
    type: 'mission.started',
    actor: 'mission:天気',
    mission: '天気',
    inputs: {},
    chainedFrom: null,
  });
  for (const task of ['調査', 'report']) {
    const commander = `commander:${task}`;
    bus.emit({
      type: 'task.started',
      actor: `task:${task}`,
      task,
      activatedBy: null,
      iterated: false,
    });
    bus.emit({
      type: 'model.request',
      actor: commander,
      requestId: `${task}-1`,
      model: task === 'report' ? PLAIN_MODEL : WIDE_MODEL,
      turn: 1,
      system: 'You are the commander 🚀.',
      messageCount: 1,
      reasoning: null,
    });
    bus.emit({
      type: 'message.appended',
      actor: commander,
      conversation: commander,
      message: {
        role: 'assistant',
        parts: [{ type: 'text', text: task === 'report' ? COMMANDER_TEXT : AGENT_TEXT }],
      },
    });
    bus.emit({
      type: 'model.response',
      actor: commander,
      requestId: `${task}-1`,
      model: task === 'report' ? PLAIN_MODEL : WIDE_MODEL,
      message: { role: 'assistant', parts: [{ type: 'text', text: 'ok' }] },
      usage,
      costPico: '12345678900',
      unpriced: false,
      stopReason: 'end',
      durationMs: 900,
    });
  }
  bus.emit({
    type: 'tool.called',
    actor: 'agent:調査/天気🌞',
    callId: 'c1',
    tool: 'builtins_http_get',
    arguments: '{"url":"https://example.com/東京/天気予報"}',
  });
  return events;
}
