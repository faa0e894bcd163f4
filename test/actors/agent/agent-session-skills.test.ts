/**
 * Skills through a real agent session (HCL project, run services, the OpenAI SDK against the
 * scripted model server): the list in the system prompt, load_skill, the skill's tools in the
 * requests after the load and not before, a stable prompt prefix, and the skills a restored or
 * pruned conversation keeps.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Message } from '../../../src/models/model-types.ts';
import { researcherSession, startHarness, wireTools, type Harness } from './harness.ts';
import { prefixStability } from './prefix-stability.ts';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const ACTOR = 'agent:t/researcher';
const DATASET_TOOLS = ['set_dataset', 'dataset_sample', 'dataset_count', 'result_to_dataset'];
const OWN_TOOLS = ['builtins_http_get', 'load_skill', ...DATASET_TOOLS];

const HCL = `
skill "clock" {
  description  = "Tell the time\\n  anywhere"
  instructions = load("skills/clock.md")
  tools        = [builtins.utils.current_time, builtins.http.get]
}

skill "unused" {
  description  = "Not listed by the agent"
  instructions = "Never shown."
}

agent "researcher" {
  model       = models.openai.gpt_4o
  personality = "You research carefully."
  tools       = [builtins.http.get]
  skills      = [skills.clock]

  skill "notes" {
    description  = "Take notes"
    instructions = "Be brief."
  }
}

mission "m" {
  commander {
    model = models.openai.gpt_4o
  }
  agents = [agents.researcher]
  task "t" {
    objective = "do it"
  }
}
`;

const CLOCK_MD = 'Use builtins_utils_current_time.\nAnswer in UTC.\n';

const LOADED_CLOCK =
  'Skill "clock" loaded. Tools it adds, offered from your next turn: builtins_utils_current_time.\n\n# Skill: clock\n\nUse builtins_utils_current_time.\nAnswer in UTC.';

const signal = (): AbortSignal => new AbortController().signal;

function instructionsOf(body: unknown): string {
  return (body as { instructions: string }).instructions;
}

describe('agent skills in a session', () => {
  it('loads a skill; its tool is offered from the next request on, with a stable prefix', async () => {
    harness = await startHarness({
      hcl: HCL,
      files: { 'skills/clock.md': CLOCK_MD },
      turns: [
        { toolCalls: [{ id: 'l1', name: 'load_skill', arguments: { name: 'clock' } }] },
        { toolCalls: [{ id: 't1', name: 'builtins_utils_current_time', arguments: {} }] },
        { text: 'It is noon UTC.' },
      ],
    });
    const session = researcherSession(harness.services);
    expect(await session.call('What time is it?', { signal: signal() })).toEqual({
      ok: true,
      result: 'It is noon UTC.',
    });
    const bodies = harness.server.requests.map((request) => request.body);
    expect(bodies.map(wireTools)).toEqual([
      OWN_TOOLS,
      [...OWN_TOOLS, 'builtins_utils_current_time'],
      [...OWN_TOOLS, 'builtins_utils_current_time'],
    ]);
    const system = instructionsOf(bodies[0]);
    expect(system.slice(system.indexOf('## Skills'))).toBe(`## Skills
Call load_skill with a skill's name when its description fits your work: the result holds the skill's instructions, and its tools are offered from your next turn.
- clock: Tell the time anywhere
- notes: Take notes`);
    // The prompt never changed: the instructions came back as the load's result.
    expect(bodies.map(instructionsOf)).toEqual([system, system, system]);
    const steps = prefixStability(bodies);
    for (const step of steps) {
      expect(step.toolsAppendOnly).toBe(true);
      expect(step.share).toBeGreaterThanOrEqual(0.95);
    }
    const completed = harness.events.flatMap((event) =>
      event.type === 'tool.completed' && event.actor === ACTOR
        ? [{ tool: event.tool, result: event.result, isError: event.isError }]
        : [],
    );
    expect(completed[0]).toEqual({ tool: 'load_skill', result: LOADED_CLOCK, isError: false });
    expect(completed[1]?.tool).toBe('builtins_utils_current_time');
    expect(completed[1]?.isError).toBe(false);
  });

  it('keeps the loaded skill for the next call of the same session', async () => {
    harness = await startHarness({
      hcl: HCL,
      files: { 'skills/clock.md': CLOCK_MD },
      turns: [
        { toolCalls: [{ id: 'l1', name: 'load_skill', arguments: { name: 'notes' } }] },
        { text: 'Noted.' },
        { text: 'Still noted.' },
      ],
    });
    const session = researcherSession(harness.services);
    await session.call('Take a note.', { signal: signal() });
    await session.call('Another.', { signal: signal() });
    const bodies = harness.server.requests.map((request) => request.body);
    // "notes" adds no tools; load_skill again would be refused, so the state carried over.
    expect(bodies.map(wireTools)).toEqual([OWN_TOOLS, OWN_TOOLS, OWN_TOOLS]);
    expect(prefixStability(bodies).every((step) => step.share >= 0.95)).toBe(true);
  });

  it('a restored agent has the skills the journal says it loaded, and their tools', async () => {
    harness = await startHarness({
      hcl: HCL,
      files: { 'skills/clock.md': CLOCK_MD },
      turns: [{ text: 'Done.' }],
    });
    const task: Message = { role: 'user', parts: [{ type: 'text', text: 'What time is it?' }] };
    const loadCall: Message = {
      role: 'assistant',
      parts: [{ type: 'tool_call', id: 'l1', name: 'load_skill', arguments: '{"name":"clock"}' }],
    };
    const loadResult: Message = {
      role: 'user',
      parts: [
        {
          type: 'tool_result',
          callId: 'l1',
          name: 'load_skill',
          content: LOADED_CLOCK,
          isError: false,
        },
      ],
    };
    const session = researcherSession(harness.services, {
      restored: {
        messages: [task, loadCall, loadResult],
        toolResult: () => undefined,
        // A skill the agent no longer has is dropped.
        loadedSkills: ['clock', 'gone'],
      },
    });
    expect(await session.resumeCall(0, { signal: signal() })).toEqual({
      ok: true,
      result: 'Done.',
    });
    const body = harness.server.requests[0]?.body;
    expect(wireTools(body)).toEqual([...OWN_TOOLS, 'builtins_utils_current_time']);
    expect(instructionsOf(body)).not.toContain('## Loaded skills');
  });

  it('puts the instructions of a loaded skill the conversation lost (pruned) into the system prompt', async () => {
    harness = await startHarness({
      hcl: HCL,
      files: { 'skills/clock.md': CLOCK_MD },
      turns: [{ text: 'Done.' }],
    });
    const task: Message = { role: 'user', parts: [{ type: 'text', text: 'What time is it?' }] };
    const session = researcherSession(harness.services, {
      restored: {
        messages: [task],
        toolResult: () => undefined,
        loadedSkills: ['clock'],
      },
    });
    await session.resumeCall(0, { signal: signal() });
    const system = instructionsOf(harness.server.requests[0]?.body);
    expect(system.slice(system.indexOf('## Loaded skills'))).toBe(`## Loaded skills
You loaded these skills earlier in this conversation; their tools are offered.

# Skill: clock

Use builtins_utils_current_time.
Answer in UTC.`);
  });

  it('keeps a loaded skill when pruning drops its load: the instructions move into the system prompt', async () => {
    const clockCall = (id: string) => ({
      toolCalls: [{ id, name: 'builtins_utils_current_time', arguments: {} }],
    });
    harness = await startHarness({
      hcl: HCL.replace(
        'personality = "You research carefully."',
        'personality = "You research carefully."\n  pruning {\n    prune_on = 3\n    prune_to = 1\n  }',
      ),
      files: { 'skills/clock.md': CLOCK_MD },
      turns: [
        { toolCalls: [{ id: 'l1', name: 'load_skill', arguments: { name: 'clock' } }] },
        clockCall('t1'),
        clockCall('t2'),
        { text: 'It is noon UTC.' },
      ],
    });
    const session = researcherSession(harness.services);
    expect(await session.call('What time is it?', { signal: signal() })).toEqual({
      ok: true,
      result: 'It is noon UTC.',
    });
    const bodies = harness.server.requests.map((request) => request.body);
    const system = instructionsOf(bodies[0]);
    expect(system).not.toContain('## Loaded skills');
    // The fourth request no longer holds the load's result (turn 1 was pruned).
    expect(JSON.stringify(bodies[2])).toContain('Skill \\"clock\\" loaded');
    expect(JSON.stringify(bodies[3])).not.toContain('Skill \\"clock\\" loaded');
    expect(bodies.map(instructionsOf)).toEqual([
      system,
      system,
      system,
      `${system}

## Loaded skills
You loaded these skills earlier in this conversation; their tools are offered.

# Skill: clock

Use builtins_utils_current_time.
Answer in UTC.`,
    ]);
    expect(wireTools(bodies[3])).toEqual([...OWN_TOOLS, 'builtins_utils_current_time']);
  });
});
