import { afterEach, describe, expect, it } from 'vitest';
import {
  call,
  cleanUp,
  eventsOf,
  plainTask,
  reply,
  runEngine,
  wireRequests,
} from './engine-harness.ts';
import { MAX_FORK_TURNS } from '../../src/actors/commander/commander-forks.ts';

afterEach(cleanUp);

const HCL = `
agent "researcher" {
  model = MODEL
  personality = "You research."
}
mission "ask" {
  commander {
    model = MODEL
  }
  task "gather" {
    objective = "Gather"
    agents = [agents.researcher]
  }
  task "use" {
    objective = "Use"
    depends_on = [tasks.gather]
  }
}`;

function results(events: Parameters<typeof eventsOf>[0], tool: string): unknown[] {
  return eventsOf(events, 'tool.completed')
    .filter((event) => event.tool === tool)
    .map((event) => JSON.parse(event.result) as unknown);
}

describe('questions to finished dependencies', () => {
  it('ask_commander follow-ups go to one fork and build on each other', async () => {
    const fork = 'commander:gather#fork';
    const { result, events, server } = await runEngine({
      hcl: HCL,
      mission: 'ask',
      turns: [
        ...plainTask('gather', 'researcher', 'Gathered 2 sources'),
        ...plainTask('use', null, 'Used', [
          call('commander:use', 'ask_commander', {
            task_name: 'gather',
            question: 'Which source first?',
          }),
          reply(fork, 'The first source is A.'),
          call('commander:use', 'ask_commander', { task_name: 'gather', question: 'And why?' }),
          reply(fork, 'Because A is primary.', { contains: 'The first source is A.' }),
          call('commander:use', 'list_commander_questions', { task_name: 'gather' }),
          call('commander:use', 'get_commander_answer', { task_name: 'gather', index: 1 }),
        ]),
      ],
    });
    server.assertDone();
    expect(result.status).toBe('succeeded');
    expect(results(events, 'ask_commander')).toEqual([
      {
        status: 'ok',
        task: 'gather',
        index: null,
        question_index: 0,
        answer: 'The first source is A.',
      },
      {
        status: 'ok',
        task: 'gather',
        index: null,
        question_index: 1,
        answer: 'Because A is primary.',
      },
    ]);
    expect(results(events, 'list_commander_questions')).toEqual([
      {
        status: 'ok',
        task: 'gather',
        questions: [
          {
            index: 0,
            question: 'Which source first?',
            iteration: null,
            asked_by: 'use',
            answered: true,
          },
          { index: 1, question: 'And why?', iteration: null, asked_by: 'use', answered: true },
        ],
      },
    ]);
    expect(results(events, 'get_commander_answer')).toEqual([
      { status: 'ok', question: 'And why?', answer: 'Because A is primary.' },
    ]);
    const forkRequests = eventsOf(events, 'model.request').filter((event) => event.actor === fork);
    expect(forkRequests).toHaveLength(2);
    // The fork starts from gather's whole conversation and keeps the earlier question and answer.
    const gatherMessages =
      eventsOf(events, 'model.request')
        .filter((event) => event.actor === 'commander:gather')
        .at(-1)?.messageCount ?? 0;
    expect(forkRequests[0]?.messageCount).toBe(gatherMessages + 2);
    expect(forkRequests[1]?.messageCount).toBe(gatherMessages + 4);
    // The wire truth: the fork's requests carry the base conversation and only ask_agent.
    const forkWire = wireRequests(server, fork);
    const gatherWire = wireRequests(server, 'commander:gather').at(-1);
    expect(forkWire[0]?.input.slice(0, (gatherWire?.input.length ?? 0) - 1)).toEqual(
      gatherWire?.input.slice(0, -1),
    );
    expect(forkWire[1]?.input.length).toBeGreaterThan(forkWire[0]?.input.length ?? 0);
    expect(forkRequests[0]?.tools?.map((tool) => tool.name)).toEqual(['ask_agent']);
    expect(forkWire[1]?.tools?.map((tool) => tool.name)).toEqual(['ask_agent']);
    expect(eventsOf(events, 'question.asked').map((event) => event.questionIndex)).toEqual([0, 1]);
    expect(eventsOf(events, 'question.answered').map((event) => event.answer)).toEqual([
      'The first source is A.',
      'Because A is primary.',
    ]);
  });

  it("ask_agent reaches a dependency's agent, which answers without tools", async () => {
    const { result, events, server } = await runEngine({
      hcl: HCL,
      mission: 'ask',
      turns: [
        ...plainTask('gather', 'researcher', 'Gathered'),
        ...plainTask('use', null, 'Used', [
          call('commander:use', 'ask_agent', {
            agent_id: 'researcher',
            question: 'What did you skip?',
          }),
          reply('agent:gather/researcher#fork', 'I skipped paywalled sources.'),
          call('commander:use', 'ask_agent', { agent_id: 'writer', question: 'Anyone?' }),
        ]),
      ],
    });
    server.assertDone();
    expect(result.status).toBe('succeeded');
    expect(results(events, 'ask_agent')).toEqual([
      { status: 'ok', agent: 'researcher', answer: 'I skipped paywalled sources.' },
      {
        status: 'error',
        error:
          'no agent "writer" has worked for this task or its dependencies; available: gather/researcher',
      },
    ]);
    const question = eventsOf(events, 'model.request').find(
      (event) => event.actor === 'agent:gather/researcher#fork',
    );
    expect(question?.tools).toEqual([]);
    const useTools = eventsOf(events, 'model.request').find(
      (event) => event.actor === 'commander:use',
    )?.tools;
    expect(useTools?.map((tool) => tool.name)).toContain('ask_agent');
  });

  it('call_agent to an agent the task does not have names the available ones', async () => {
    const { events } = await runEngine({
      hcl: HCL,
      mission: 'ask',
      turns: [
        call('commander:gather', 'set_subtasks', { subtasks: ['Go'] }),
        call('commander:gather', 'call_agent', { name: 'writer', task: 'Write' }),
        call('commander:gather', 'task_complete', { succeed: false, reason: 'no writer' }),
      ],
    });
    expect(results(events, 'call_agent')).toEqual([
      {
        status: 'error',
        error: 'agent "writer" is not available to this task; available: researcher',
      },
    ]);
  });

  it('iterated targets need an index; an ambiguous agent name asks for a qualified id', async () => {
    const hcl = `
agent "researcher" {
  model = MODEL
  personality = "You research."
}
mission "ask" {
  commander {
    model = MODEL
  }
  dataset "pair" {
    items = ["x", "y"]
  }
  task "each" {
    objective = "Each \${item}"
    agents = [agents.researcher]
    iterator {
      dataset = datasets.pair
      parallel = true
    }
  }
  task "use" {
    objective = "Use"
    depends_on = [tasks.each]
  }
}`;
    const item = (index: number) => {
      const commander = `commander:each[${index}]`;
      return [
        call(commander, 'set_subtasks', { subtasks: ['Go'] }),
        call(commander, 'call_agent', { name: 'researcher', task: `item ${index}` }),
        reply(`agent:each[${index}]/researcher`, `found ${index}`),
        call(commander, 'complete_subtask'),
        call(commander, 'task_complete', { summary: `item ${index} done` }),
      ];
    };
    const { result, events, server } = await runEngine({
      hcl,
      mission: 'ask',
      turns: [
        ...item(0),
        ...item(1),
        ...plainTask('use', null, 'Used', [
          call('commander:use', 'ask_agent', { agent_id: 'researcher', question: 'Which?' }),
          call('commander:use', 'ask_agent', {
            agent_id: 'each[1]/researcher',
            question: 'What did you find?',
          }),
          reply('agent:each[1]/researcher#fork', 'I found 1.'),
          call('commander:use', 'ask_commander', { task_name: 'each', question: 'How?' }),
          call('commander:use', 'ask_commander', { task_name: 'each', question: 'How?', index: 1 }),
          reply('commander:each[1]#fork', 'Carefully.'),
        ]),
      ],
    });
    server.assertDone();
    expect(result.status).toBe('succeeded');
    expect(results(events, 'ask_agent')).toEqual([
      {
        status: 'error',
        error:
          'agent "researcher" is ambiguous; use one of: each[0]/researcher, each[1]/researcher',
      },
      { status: 'ok', agent: 'each[1]/researcher', answer: 'I found 1.' },
    ]);
    expect(results(events, 'ask_commander')).toEqual([
      { status: 'error', error: 'task "each" is iterated: pass index (0-1)' },
      { status: 'ok', task: 'each', index: 1, question_index: 0, answer: 'Carefully.' },
    ]);
  });

  it('a fork may only ask its own agents; other tools are refused and it goes on', async () => {
    const fork = 'commander:gather#fork';
    const { events, server } = await runEngine({
      hcl: HCL,
      mission: 'ask',
      turns: [
        ...plainTask('gather', 'researcher', 'Gathered'),
        ...plainTask('use', null, 'Used', [
          call('commander:use', 'ask_commander', { task_name: 'gather', question: 'Check again?' }),
          call(fork, 'call_agent', { name: 'researcher', task: 'redo' }),
          call(fork, 'ask_agent', { agent_id: 'researcher', question: 'Sure?' }),
          reply('agent:gather/researcher#fork', 'Yes, sure.'),
          reply(fork, 'Checked: the researcher is sure.'),
        ]),
      ],
    });
    server.assertDone();
    const forkResults = eventsOf(events, 'tool.completed')
      .filter((event) => event.actor === fork)
      .map((event) => JSON.parse(event.result) as unknown);
    expect(forkResults).toEqual([
      { status: 'error', error: 'only ask_agent is available while answering questions' },
      { status: 'ok', agent: 'researcher', answer: 'Yes, sure.' },
    ]);
    expect(results(events, 'ask_commander')).toEqual([
      {
        status: 'ok',
        task: 'gather',
        index: null,
        question_index: 0,
        answer: 'Checked: the researcher is sure.',
      },
    ]);
  });

  it('a fork that never answers stops at its turn cap; the asker reads why', async () => {
    const fork = 'commander:gather#fork';
    const { events, server } = await runEngine({
      hcl: HCL,
      mission: 'ask',
      // The fork asks the same thing over and over: a loop, rightly signalled.
      signals: true,
      turns: [
        ...plainTask('gather', 'researcher', 'Gathered'),
        ...plainTask('use', null, 'Used', [
          call('commander:use', 'ask_commander', { task_name: 'gather', question: 'Loop?' }),
          ...Array.from({ length: MAX_FORK_TURNS }, () =>
            call(fork, 'ask_agent', { agent_id: 'nobody', question: 'Again?' }),
          ),
        ]),
      ],
    });
    server.assertDone();
    const forkRequests = eventsOf(events, 'model.request').filter((event) => event.actor === fork);
    expect(forkRequests).toHaveLength(20);
    // Every request of the fork offers ask_agent and nothing else.
    expect(wireRequests(server, fork).map((body) => body.tools?.map((tool) => tool.name))).toEqual(
      Array.from({ length: 20 }, () => ['ask_agent']),
    );
    const forkResults = eventsOf(events, 'tool.completed').filter((event) => event.actor === fork);
    expect(forkResults).toHaveLength(20);
    expect(JSON.parse(forkResults[0]?.result ?? '')).toEqual({
      status: 'error',
      error: 'agent "nobody" has not worked for this commander; available: researcher',
    });
    expect(results(events, 'ask_commander')).toEqual([
      {
        status: 'error',
        error:
          'the commander of "gather" could not answer: the answer took more than 20 model turns',
      },
    ]);
  });

  it('questions from another task build on the same fork', async () => {
    const hcl = `${HCL.replace(/\}\s*$/, '')}
  task "later" {
    objective = "Later"
    depends_on = [tasks.use]
  }
}`;
    const fork = 'commander:gather#fork';
    const { events, server } = await runEngine({
      hcl,
      mission: 'ask',
      turns: [
        ...plainTask('gather', 'researcher', 'Gathered'),
        ...plainTask('use', null, 'Used', [
          call('commander:use', 'ask_commander', { task_name: 'gather', question: 'First?' }),
          reply(fork, 'Answer for use.'),
        ]),
        ...plainTask('later', null, 'Later done', [
          call('commander:later', 'ask_commander', { task_name: 'gather', question: 'Second?' }),
          reply(fork, 'Answer for later.', { contains: 'Answer for use.' }),
          call('commander:later', 'list_commander_questions', { task_name: 'gather' }),
        ]),
      ],
    });
    server.assertDone();
    expect(results(events, 'list_commander_questions')).toEqual([
      {
        status: 'ok',
        task: 'gather',
        questions: [
          { index: 0, question: 'First?', iteration: null, asked_by: 'use', answered: true },
          { index: 1, question: 'Second?', iteration: null, asked_by: 'later', answered: true },
        ],
      },
    ]);
  });
});
