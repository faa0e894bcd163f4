import { describe, expect, it } from 'vitest';
import {
  commanderSystemPrompt,
  itemObjectiveMessage,
  personalityHeadline,
  sequentialObjectiveMessage,
} from '../../../src/runtime/prompts/index.ts';

const ROLE = `You are the commander of task "t". You orchestrate; agents do the work.
- First call set_subtasks with a short plan (1-10 subtasks); call complete_subtask as each one is done.
- Delegate the work with call_agent: give the agent a complete, self-contained task.
- Never fabricate: report only what agents and tools returned.
- Finish with task_complete and a summary of what was done and found. If the task cannot be done, call task_complete with succeed=false and a reason.`;

describe('commanderSystemPrompt', () => {
  it('lists every section in the fixed order', () => {
    const prompt = commanderSystemPrompt({
      task: 't',
      directive: 'Be careful',
      agents: [{ name: 'researcher', personality: 'Finds sources.\nLong details.' }],
      dependencies: [
        { task: 'gather', summary: 'Found 3 sources' },
        {
          task: 'rank',
          summary: 'iterated over 4 items of dataset cities: 3 succeeded, 1 failed',
          fields: [{ name: 'score', type: 'number' }],
        },
      ],
      output: {
        jsonSchema: {
          type: 'object',
          properties: { total: { type: 'number' } },
          required: ['total'],
        },
        fields: [
          {
            name: 'total',
            type: 'number',
            required: true,
            protected: false,
            file: false,
            description: 'The sum',
          },
        ],
      },
      routes: [
        { key: 'publish', kind: 'task', condition: 'Good enough' },
        { key: 'next_mission', kind: 'mission', condition: 'Needs more' },
      ],
      sequential: true,
    });
    expect(prompt).toBe(`${ROLE}

## Mission directive
Be careful

## Agents
- researcher: Finds sources.

## Completed dependencies
- gather: Found 3 sources
- rank: iterated over 4 items of dataset cities: 3 succeeded, 1 failed
  output fields: score (number)
Outputs are not shown here: read them with query_task_output; ask their commanders with ask_commander.

## Output
Submit it with submit_output before task_complete. Fields:
${prompt.split('Fields:\n')[1]?.split('\n\n')[0]}

## Routes
Choose the route whose condition holds and pass its key as task_complete's route:
- publish: Good enough
- next_mission (mission): Needs more
- none: no condition holds.
A mission route needs mission_inputs with that mission's inputs.

## Items
Work through the dataset one item at a time: call dataset_next, plan the item with set_subtasks, do it, submit_output for it, complete its subtasks, then call dataset_next again. When it returns "exhausted", call task_complete.`);
    expect(prompt).toContain('total');
  });

  it('a plain task without agents has only the role, without the delegation line', () => {
    const prompt = commanderSystemPrompt({
      task: 't',
      agents: [],
      dependencies: [],
      sequential: false,
    });
    expect(prompt).toBe(
      ROLE.replace(
        '- Delegate the work with call_agent: give the agent a complete, self-contained task.\n',
        '',
      ),
    );
  });

  it('does not re-read placeholders inside filled values', () => {
    const prompt = commanderSystemPrompt({
      task: '{task}',
      directive: '{directive}',
      agents: [],
      dependencies: [],
      sequential: false,
    });
    expect(prompt).toContain('commander of task "{task}"');
    expect(prompt).toContain('## Mission directive\n{directive}');
  });
});

describe('first user messages', () => {
  it('a parallel item gets the objective and the item as JSON', () => {
    expect(itemObjectiveMessage('Research Paris', 'cities', 2, { name: 'Paris' })).toBe(
      'Research Paris\n\nItem 2 of dataset "cities":\n{"name":"Paris"}',
    );
  });

  it('a sequential task gets the objective, the item count and the dataset_next step', () => {
    expect(sequentialObjectiveMessage('Write sections', 'sections', 3)).toBe(
      'Write sections\n\nThe dataset "sections" has 3 items. Call dataset_next to get the first one.',
    );
  });
});

describe('personalityHeadline', () => {
  it('takes the first line, joining wrapped lines until one ends a sentence', () => {
    expect(
      personalityHeadline('You write short, warm greetings. One or two sentences.\nMore.'),
    ).toBe('You write short, warm greetings. One or two sentences.');
    expect(
      personalityHeadline(
        'You are a careful researcher. You look things up\ninstead of guessing.\nMore.',
      ),
    ).toBe('You are a careful researcher. You look things up instead of guessing.');
    expect(personalityHeadline('You research carefully and\nnote sources\n\nRules')).toBe(
      'You research carefully and note sources',
    );
  });

  it('cuts a long opening with an ellipsis', () => {
    const headline = personalityHeadline('word '.repeat(60));
    expect(headline).toHaveLength(160);
    expect(headline.endsWith('…')).toBe(true);
  });
});
