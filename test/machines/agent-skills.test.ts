/**
 * The agent machine's skill rules: load_skill is ruled on by the machine (loaded, twice,
 * unknown, bad arguments), a skill's tools are refused until it is loaded, and the loaded
 * skills reach the next model turn and the next call of the session.
 */
import { createActor, toPromise } from 'xstate';
import { describe, expect, it } from 'vitest';
import type { Message, ToolCallPart } from '../../src/models/model-types.ts';
import type { AgentToolInput } from '../../src/machines/agent.machine.ts';
import { skillsOutsideConversation, type SkillEntry } from '../../src/machines/agent-skills.ts';
import type {
  ModelTurnInput,
  ModelTurnOutput,
  ToolOutcome,
} from '../../src/machines/turn-types.ts';
import { call, reply, textReply } from './commander-harness.ts';
import { repliesInOrder, scriptedAgent } from './agent-harness.ts';

const task: Message = { role: 'user', parts: [{ type: 'text', text: 'Scrape the page.' }] };

const SKILLS: SkillEntry[] = [
  {
    name: 'web_scraping',
    instructions: '  Fetch pages with builtins_http_get.\nKeep only the text.\n',
    tools: ['builtins_http_get'],
  },
  { name: 'summarizer', instructions: 'Write three sentences.', tools: [] },
];

const LOADED_TEXT =
  'Skill "web_scraping" loaded. Tools it adds, offered from your next turn: builtins_http_get.\n\n# Skill: web_scraping\n\nFetch pages with builtins_http_get.\nKeep only the text.';

function error(message: string, extra: Record<string, unknown> = {}): ToolOutcome {
  return { content: JSON.stringify({ status: 'error', error: message, ...extra }), isError: true };
}

async function runAgent(
  replies: ModelTurnOutput[],
  input: { skills?: SkillEntry[]; loadedSkills?: string[] } = { skills: SKILLS },
) {
  const executed: AgentToolInput[] = [];
  const turns: ModelTurnInput[] = [];
  const sent = repliesInOrder(replies);
  const { machine } = scriptedAgent({
    modelTurn: async (turn, signal) => {
      turns.push(turn);
      return sent(turn, signal);
    },
    // As the real wiring: a ruling is the result; otherwise the tool runs.
    toolCall: async (toolInput) => {
      executed.push(toolInput);
      return toolInput.answer ?? { content: `ran ${toolInput.call.name}`, isError: false };
    },
  });
  const actor = createActor(machine, { input: { messages: [task], ...input } }).start();
  const result = await toPromise(actor);
  const results = result.messages
    .flatMap((message) => message.parts)
    .flatMap((part) =>
      part.type === 'tool_result' ? [{ content: part.content, isError: part.isError }] : [],
    );
  return { result, executed, turns, results };
}

describe('load_skill in the agent machine', () => {
  it('loads a skill: the instructions come back, and the next turn and the result carry it', async () => {
    const load = call('load_skill', { name: 'web_scraping' });
    const { result, executed, turns, results } = await runAgent([
      reply(load),
      reply(call('builtins_http_get', { url: 'http://x' })),
      textReply('done'),
    ]);
    expect(results).toEqual([
      { content: LOADED_TEXT, isError: false },
      { content: 'ran builtins_http_get', isError: false },
    ]);
    // The ruling went through executeTool (gate and events), the loaded state with each call.
    expect(executed.map((entry) => [entry.call.name, entry.answer !== undefined])).toEqual([
      ['load_skill', true],
      ['builtins_http_get', false],
    ]);
    expect(executed[1]?.loadedSkills).toEqual(['web_scraping']);
    expect(turns.map((turn) => turn.loadedSkills)).toEqual([
      [],
      ['web_scraping'],
      ['web_scraping'],
    ]);
    expect(result.loadedSkills).toEqual(['web_scraping']);
    expect(result.answer).toBe('done');
  });

  it('says a skill without tools adds none', async () => {
    const { results } = await runAgent([
      reply(call('load_skill', { name: 'summarizer' })),
      textReply('ok'),
    ]);
    expect(results).toEqual([
      {
        content:
          'Skill "summarizer" loaded. It adds no tools.\n\n# Skill: summarizer\n\nWrite three sentences.',
        isError: false,
      },
    ]);
  });

  it('refuses a second load of the same skill, changing nothing', async () => {
    const { result, results } = await runAgent([
      reply(call('load_skill', { name: 'web_scraping' })),
      reply(call('load_skill', { name: 'web_scraping' })),
      textReply('ok'),
    ]);
    expect(results[1]).toEqual(
      error(
        'skill "web_scraping" is already loaded: its instructions are in your context and its tools are offered',
      ),
    );
    expect(result.loadedSkills).toEqual(['web_scraping']);
  });

  it('refuses an unknown skill with a did-you-mean and the skills there are', async () => {
    const { result, results } = await runAgent([
      reply(call('load_skill', { name: 'web_scrapping' }), call('load_skill', { name: 'cooking' })),
      textReply('ok'),
    ]);
    expect(results).toEqual([
      error(
        'unknown skill "web_scrapping" (did you mean "web_scraping"?); your skills: web_scraping, summarizer',
      ),
      error('unknown skill "cooking"; your skills: web_scraping, summarizer'),
    ]);
    expect(result.loadedSkills).toEqual([]);
  });

  it('refuses arguments without a skill name', async () => {
    const { results } = await runAgent([
      reply(call('load_skill', {}), call('load_skill', '{"name": ')),
      textReply('ok'),
    ]);
    expect(results[0]).toEqual(
      error('invalid arguments for load_skill', {
        problems: ["/: must have required property 'name'"],
      }),
    );
    expect(results[1]?.isError).toBe(true);
    expect(String(results[1]?.content)).toContain('arguments are not valid JSON');
  });

  it("refuses a skill's tool until the skill is loaded; in the same reply after the load it runs", async () => {
    const { executed, results } = await runAgent([
      reply(
        call('builtins_http_get', { url: 'http://x' }),
        call('load_skill', { name: 'web_scraping' }),
        call('builtins_http_get', { url: 'http://x' }),
      ),
      textReply('ok'),
    ]);
    expect(results).toEqual([
      error(
        'tool "builtins_http_get" comes with skill "web_scraping": call load_skill with name "web_scraping" first',
      ),
      { content: LOADED_TEXT, isError: false },
      { content: 'ran builtins_http_get', isError: false },
    ]);
    expect(executed.map((entry) => entry.answer === undefined)).toEqual([false, false, true]);
  });

  it('starts with the skills loaded before (a later call of the session, or a restart)', async () => {
    const { results } = await runAgent(
      [
        reply(call('builtins_http_get'), call('load_skill', { name: 'web_scraping' })),
        textReply('ok'),
      ],
      { skills: SKILLS, loadedSkills: ['web_scraping'] },
    );
    expect(results[0]).toEqual({ content: 'ran builtins_http_get', isError: false });
    expect(results[1]?.isError).toBe(true);
  });

  it('leaves load_skill to the wiring (an unknown tool) for an agent without skills', async () => {
    const { executed } = await runAgent(
      [reply(call('load_skill', { name: 'x' })), textReply('ok')],
      {},
    );
    expect(executed).toHaveLength(1);
    expect(executed[0]?.answer).toBeUndefined();
  });
});

describe('skillsOutsideConversation', () => {
  const load = (id: string, name: string): ToolCallPart => ({
    type: 'tool_call',
    id,
    name: 'load_skill',
    arguments: JSON.stringify({ name }),
  });
  const result = (callId: string, isError: boolean): Message => ({
    role: 'user',
    parts: [{ type: 'tool_result', callId, name: 'load_skill', content: 'x', isError }],
  });
  const state = { skills: SKILLS, loadedSkills: ['summarizer', 'web_scraping'] };

  it('is empty while every load result is in the conversation', () => {
    const messages: Message[] = [
      task,
      { role: 'assistant', parts: [load('a', 'web_scraping'), load('b', 'summarizer')] },
      { role: 'user', parts: [...result('a', false).parts, ...result('b', false).parts] },
    ];
    expect(skillsOutsideConversation(state, messages)).toEqual([]);
  });

  it('names the loaded skills whose load result was dropped, in load order', () => {
    const messages: Message[] = [
      task,
      { role: 'assistant', parts: [load('a', 'web_scraping')] },
      result('a', false),
      // A failed load does not count as the skill's instructions.
      { role: 'assistant', parts: [load('c', 'summarizer')] },
      result('c', true),
    ];
    expect(skillsOutsideConversation(state, messages).map((skill) => skill.name)).toEqual([
      'summarizer',
    ]);
    expect(skillsOutsideConversation(state, [task]).map((skill) => skill.name)).toEqual([
      'summarizer',
      'web_scraping',
    ]);
  });
});
